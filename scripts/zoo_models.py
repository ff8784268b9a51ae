"""The unseen zoo of issue 48's target: torchvision, timm and Hugging Face models that no test
uses, random weights (no download), sized small enough to export and run on 2 cores.
scripts/pt2_zoo.py measures modrec's `.pt2` tables and captures on them against torchinfo and
eager hooks; models.py registers them, so scripts/oracle.py and torchinfo_table.py build them by
name as any other model."""
from typing import Callable, Dict, Tuple

import torch
from torch import Tensor, nn

SEED = 0
Builder = Callable[[], nn.Module]
Inputs = Callable[[], Tuple[Tensor, ...]]


def _images(size: int, batch: int = 2) -> Inputs:
    return lambda: (torch.randn(batch, 3, size, size,
                                generator=torch.Generator().manual_seed(SEED)),)


def _tokens(length: int = 8) -> Inputs:
    return lambda: (torch.randint(0, 64, (1, length), generator=torch.Generator().manual_seed(SEED)),)


def _torchvision(arch: str, **kwargs: object) -> Builder:
    def build() -> nn.Module:
        import torchvision
        torch.manual_seed(SEED)
        return getattr(torchvision.models, arch)(weights=None, num_classes=10, **kwargs)
    return build


def _timm(name: str, **sizes: object) -> Builder:
    def build() -> nn.Module:
        import timm
        torch.manual_seed(SEED)
        return timm.create_model(name, pretrained=False, num_classes=10, **sizes)
    return build


class HFModel(nn.Module):
    """A random-weight Hugging Face model built from a tiny config, called with its token ids
    (and, for encoder-decoders, as its decoder's ids too), its ModelOutput returned whole."""

    def __init__(self, model: str, config: str, seq2seq: bool, sizes: Dict[str, object]) -> None:
        super().__init__()
        import transformers
        self.seq2seq = seq2seq
        self.model = getattr(transformers, model)(getattr(transformers, config)(**sizes))

    def forward(self, ids: Tensor) -> object:
        if self.seq2seq:
            return self.model(input_ids=ids, decoder_input_ids=ids)
        return self.model(input_ids=ids)


def _hf(model: str, config: str, seq2seq: bool = False, **sizes: object) -> Builder:
    def build() -> nn.Module:
        torch.manual_seed(SEED)
        return HFModel(model, config, seq2seq, dict(vocab_size=64, **sizes))
    return build


_BERT = dict(hidden_size=16, num_hidden_layers=2, num_attention_heads=2, intermediate_size=32,
             max_position_embeddings=64)
_DECODER = dict(hidden_size=16, intermediate_size=32, num_hidden_layers=2, num_attention_heads=2,
                num_key_value_heads=1, max_position_embeddings=64, use_cache=False)
_BART = dict(d_model=16, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2,
             decoder_attention_heads=2, encoder_ffn_dim=32, decoder_ffn_dim=32,
             max_position_embeddings=64, use_cache=False)

ZOO_MODELS: Dict[str, Tuple[Builder, Inputs]] = {
    # torchvision classifiers (the tests use resnet18, resnet50, mobilenet_v2, densenet121,
    # vit_b_16 and swin_t)
    "zoo_resnet34": (_torchvision("resnet34"), _images(64)),
    "zoo_resnext50_32x4d": (_torchvision("resnext50_32x4d"), _images(64, 1)),
    "zoo_squeezenet1_1": (_torchvision("squeezenet1_1"), _images(64)),
    "zoo_shufflenet_v2_x0_5": (_torchvision("shufflenet_v2_x0_5"), _images(64)),
    "zoo_mnasnet0_5": (_torchvision("mnasnet0_5"), _images(64)),
    "zoo_mobilenet_v3_small": (_torchvision("mobilenet_v3_small"), _images(64)),
    "zoo_efficientnet_b0": (_torchvision("efficientnet_b0"), _images(64)),
    "zoo_regnet_y_400mf": (_torchvision("regnet_y_400mf"), _images(64)),
    "zoo_googlenet": (_torchvision("googlenet", aux_logits=False, init_weights=True), _images(64)),
    "zoo_convnext_tiny": (_torchvision("convnext_tiny"), _images(64, 1)),
    "zoo_mobilenet_v3_large": (_torchvision("mobilenet_v3_large"), _images(64)),
    "zoo_efficientnet_v2_s": (_torchvision("efficientnet_v2_s"), _images(64, 1)),
    "zoo_maxvit_t": (_torchvision("maxvit_t"), _images(224, 1)),
    # timm families, tiny or small
    "zoo_timm_efficientnet_b0": (_timm("efficientnet_b0"), _images(64)),
    "zoo_timm_regnetx_002": (_timm("regnetx_002"), _images(64)),
    "zoo_timm_mobilevit_xxs": (_timm("mobilevit_xxs"), _images(64)),
    "zoo_timm_deit_tiny": (_timm("deit_tiny_patch16_224", img_size=64), _images(64)),
    "zoo_timm_resnet18": (_timm("resnet18"), _images(64)),
    "zoo_timm_swin": (_timm("swin_tiny_patch4_window7_224", img_size=112, window_size=7,
                            embed_dim=32, depths=(1, 1, 1, 1), num_heads=(1, 2, 4, 8)),
                      _images(112, 1)),
    "zoo_timm_pvt_v2_b0": (_timm("pvt_v2_b0"), _images(64)),
    "zoo_timm_mixer": (_timm("mixer_s16_224", img_size=64), _images(64)),
    "zoo_timm_levit": (_timm("levit_128s", img_size=64), _images(64)),
    "zoo_timm_mobilenetv3_small_050": (_timm("mobilenetv3_small_050"), _images(64)),
    "zoo_timm_lcnet_050": (_timm("lcnet_050"), _images(64)),
    "zoo_timm_edgenext_xx_small": (_timm("edgenext_xx_small"), _images(64)),
    "zoo_timm_ghostnet_050": (_timm("ghostnet_050"), _images(64)),
    "zoo_timm_rexnet_100": (_timm("rexnet_100"), _images(64)),
    "zoo_timm_poolformer_s12": (_timm("poolformer_s12"), _images(64)),
    "zoo_timm_dla34": (_timm("dla34"), _images(64)),
    "zoo_timm_cait": (_timm("cait_xxs24_224", img_size=64, depth=2), _images(64)),
    "zoo_timm_coatnet": (_timm("coatnet_nano_rw_224", img_size=64), _images(64)),
    # Hugging Face encoders, decoders and encoder-decoders (the tests use T5, Llama, Mistral,
    # Gemma, GPT-NeoX)
    "zoo_hf_bert": (_hf("BertModel", "BertConfig", **_BERT), _tokens()),
    "zoo_hf_roberta": (_hf("RobertaModel", "RobertaConfig", **_BERT), _tokens()),
    "zoo_hf_distilbert": (_hf("DistilBertModel", "DistilBertConfig", dim=16, n_layers=2, n_heads=2,
                              hidden_dim=32, max_position_embeddings=64), _tokens()),
    "zoo_hf_gpt2": (_hf("GPT2Model", "GPT2Config", n_embd=16, n_layer=2, n_head=2, n_positions=64,
                        use_cache=False), _tokens()),
    "zoo_hf_qwen2": (_hf("Qwen2Model", "Qwen2Config", **_DECODER), _tokens()),
    "zoo_hf_phi3": (_hf("Phi3Model", "Phi3Config", pad_token_id=0, **_DECODER), _tokens()),
    "zoo_hf_bart": (_hf("BartModel", "BartConfig", seq2seq=True, **_BART), _tokens()),
    "zoo_hf_marian": (_hf("MarianModel", "MarianConfig", seq2seq=True, decoder_start_token_id=0,
                          pad_token_id=1, **_BART), _tokens()),
    "zoo_hf_mt5": (_hf("MT5Model", "MT5Config", seq2seq=True, d_model=16, d_kv=8, d_ff=32,
                       num_layers=1, num_decoder_layers=1, num_heads=2, use_cache=False),
                   _tokens()),
}
