"""pandas, imported when a DataFrame is asked for (importing modrec imports neither it nor
torch)."""
from __future__ import annotations

from typing import Any, Dict, List, Sequence


def pandas() -> Any:
    try:
        import pandas
    except ImportError:
        raise ImportError("modrec: to_pandas() needs pandas: pip install pandas") from None
    return pandas


def data_frame(records: List[Dict[str, Any]], columns: Sequence[str]) -> Any:
    """A DataFrame of `records`, `columns` first in that order, then any other key in the
    order first met."""
    seen = dict.fromkeys(columns)
    for record in records:
        for key in record:
            seen.setdefault(key)
    return pandas().DataFrame.from_records(records, columns=list(seen))
