"""A sharded recording run the way users run one: docs/record.md's Slurm job-array script on a real
single-node Slurm (slurmctld + slurmd + munged started here, from Debian's slurm-wlm), and the
Kubernetes Indexed Job's command for every index; `modrec merge` of the shards equals one run over
all the data (statistics to 1e-12 relative, histograms exactly)."""
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import unittest

import numpy
import torch

from e2e import MODREC, ROOT, main, run, sample

EXAMPLES = os.path.join(ROOT, "docs", "examples")
FIELDS = ("count", "finite_count", "nan_count", "inf_count", "mean", "std", "min", "max",
          "abs_max", "l2_norm", "zero_fraction")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SlurmCluster:
    """munged, slurmctld and slurmd of one node, configured and logging under `root`."""

    def __init__(self, root):
        self.root, self.procs = root, []
        for d in ("munge", "state", "spool", "log"):
            os.makedirs(os.path.join(root, d))
        key = os.path.join(root, "munge", "munge.key")
        subprocess.run(["mungekey", "-c", "-k", key], check=True)
        os.chmod(key, 0o600)
        sock = os.path.join(root, "munge", "sock")
        subprocess.run(["munged", "--key-file", key, "--socket", sock, "--pid-file",
                        os.path.join(root, "munge", "pid"), "--log-file",
                        os.path.join(root, "munge", "log"), "--seed-file",
                        os.path.join(root, "munge", "seed"), "--force"], check=True)
        self.munge_pid = os.path.join(root, "munge", "pid")
        host = socket.gethostname()
        conf = os.path.join(root, "slurm.conf")
        with open(conf, "w") as f:
            f.write(f"""ClusterName=modrec
SlurmctldHost={host}(127.0.0.1)
SlurmUser={os.environ.get("USER", "root")}
AuthType=auth/munge
AuthInfo=socket={sock}
CredType=cred/munge
StateSaveLocation={root}/state
SlurmdSpoolDir={root}/spool
SlurmctldPidFile={root}/slurmctld.pid
SlurmdPidFile={root}/slurmd.pid
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
SlurmctldLogFile={root}/log/slurmctld.log
SlurmdLogFile={root}/log/slurmd.log
NodeName={host} NodeAddr=127.0.0.1 CPUs={os.cpu_count()} State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
""")
        self.env = dict(os.environ, SLURM_CONF=conf)
        for daemon in (["slurmctld", "-D", "-c"], ["slurmd", "-D"]):
            self.procs.append(subprocess.Popen(daemon, env=self.env, stdout=subprocess.DEVNULL,
                                               stderr=subprocess.DEVNULL))
        deadline = time.time() + 60
        while time.time() < deadline:
            state = subprocess.run(["sinfo", "-h", "-o", "%T"], env=self.env, capture_output=True,
                                   text=True).stdout.strip()
            if state == "idle":
                return
            time.sleep(0.5)
        self.stop()
        raise AssertionError("Slurm did not come up:\n" + self.logs())

    def logs(self):
        out = ""
        for name in ("slurmctld.log", "slurmd.log"):
            path = os.path.join(self.root, "log", name)
            if os.path.exists(path):
                out += f"--- {name}\n" + open(path).read()[-2000:]
        return out

    def stop(self):
        for p in self.procs:
            p.terminate()
            p.wait(timeout=30)
        with open(self.munge_pid) as f:
            os.kill(int(f.read()), 15)


class ShardedRuns(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="shards-")
        torch.manual_seed(0)
        cls.data = os.path.join(cls.dir, "data.npy")
        numpy.save(cls.data, torch.randn(50, 3, 16, 16).numpy())
        cls.model = sample("TinyConvNet")
        cls.whole = os.path.join(cls.dir, "whole")
        run("record", cls.model, "--input", cls.data, "--batch-size", "64", "--layers", "all",
            "--save", "none", "--out", cls.whole)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def assert_merged_equals_whole(self, shard_dirs):
        merged = os.path.join(tempfile.mkdtemp(dir=self.dir), "merged")
        run("merge", *shard_dirs, "--out", merged)
        with open(os.path.join(merged, "stats.json")) as f:
            got = json.load(f)["layers"]
        with open(os.path.join(self.whole, "stats.json")) as f:
            want = json.load(f)["layers"]
        self.assertEqual([l["label"] for l in got], [l["label"] for l in want])
        for g, w in zip(got, want):
            for capture, tensors in w["captures"].items():
                for gt, wt in zip(g["captures"][capture], tensors):
                    where = (w["label"], capture, wt["tensor"])
                    for field in FIELDS:
                        self.assertLessEqual(abs(gt[field] - wt[field]),
                                             1e-12 * abs(wt[field]), (where, field))
                    self.assertEqual(gt["histogram"], wt["histogram"], where)

    @unittest.skipUnless(shutil.which("slurmctld") and shutil.which("munged"),
                         "needs Debian's slurm-wlm and munge (scripts/setup.sh installs them)")
    def test_the_readme_slurm_job_array(self):
        cluster = SlurmCluster(os.path.join(self.dir, "slurm"))
        self.addCleanup(cluster.stop)
        runs = os.path.join(self.dir, "slurm-runs")
        os.mkdir(runs)
        env = dict(cluster.env, MODEL=self.model, DATA=self.data, RUNS=runs, MODREC=MODREC)
        p = subprocess.run(["sbatch", "--wait", "--array=0-3", "--chdir", runs, "--export=ALL",
                            os.path.join(EXAMPLES, "slurm-record-shards.sbatch")],
                           env=env, capture_output=True, text=True, timeout=600)
        logs = "".join(open(os.path.join(runs, f)).read() for f in sorted(os.listdir(runs))
                       if f.endswith(".log"))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr + logs + cluster.logs())
        shards = [os.path.join(runs, f"shard-{k}") for k in range(4)]
        for k, shard in enumerate(shards):
            with open(os.path.join(shard, "manifest.json")) as f:
                self.assertEqual(json.load(f)["shard"]["index"], k)
        self.assert_merged_equals_whole(reversed(shards))  # merge orders them by their manifests

    def test_the_readme_kubernetes_indexed_job_command(self):
        with open(os.path.join(EXAMPLES, "k8s-record-shards.yaml")) as f:
            text = f.read()
        command = re.search(r"args:\n\s*- (modrec record .*)\n", text).group(1)
        completions = int(re.search(r"completions: (\d+)", text).group(1))
        root = os.path.join(self.dir, "k8s")
        os.makedirs(os.path.join(root, "data"))
        os.mkdir(os.path.join(root, "runs"))
        shutil.copy(self.model, os.path.join(root, "data", "model.pt"))
        shutil.copy(self.data, os.path.join(root, "data", "data.npy"))
        command = command.replace("modrec ", MODREC + " ", 1).replace("/data/", root + "/data/")
        command = command.replace("/runs/", root + "/runs/")
        for index in range(completions):  # what each pod runs, JOB_COMPLETION_INDEX set
            subprocess.run(["sh", "-c", command], check=True, capture_output=True,
                           env=dict(os.environ, JOB_COMPLETION_INDEX=str(index)))
        self.assert_merged_equals_whole(
            [os.path.join(root, "runs", f"shard-{k}") for k in range(completions)])


if __name__ == "__main__":
    main()
