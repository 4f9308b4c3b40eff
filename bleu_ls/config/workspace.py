"""``bleu-ls.toml``: the workspace's settings and pairing rules, read from
the workspace root (``check`` also looks upwards from where it starts).

Keys may be written snake_case or camelCase; they come back camelCase, as
the settings object and the editors spell them.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, Optional

CONFIG_NAME = "bleu-ls.toml"


def _camel_key(key: str) -> str:
    parts = re.split(r"[_-]", key)
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def _camel_keys(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {_camel_key(str(k)): _camel_keys(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_camel_keys(v) for v in obj]
    return obj


def _toml_loads():
    if sys.version_info >= (3, 11):
        import tomllib

        return tomllib.loads, tomllib.TOMLDecodeError
    try:
        import tomli

        return tomli.loads, tomli.TOMLDecodeError
    except ModuleNotFoundError:
        return None, None


def resolve_paths(data: dict, folder: Path) -> dict:
    """The settings' file paths (``terms.files``) made absolute against ``folder`` (a user's
    ``~`` expanded); anything that is not a list of strings is left for the settings to say."""
    terms = data.get("terms")
    if isinstance(terms, dict) and isinstance(terms.get("files"), list):
        terms["files"] = [str(Path(folder) / Path(f).expanduser()) if isinstance(f, str) and f else f
                          for f in terms["files"]]
    rules = data.get("rules")
    if isinstance(rules, list):  # the user rules' ``files`` globs: those with a folder part
        data["rules"] = [{**r, "files": [_anchored(g, folder) for g in r["files"]]}
                         if isinstance(r, dict) and isinstance(r.get("files"), list) else r for r in rules]
    return data


def _anchored(glob: Any, folder: Path) -> Any:
    """A user rule's ``files`` glob made absolute against ``folder`` when it names a folder
    (``docs/*.po``); one without a ``/`` (``*.po``) names files in any folder and is kept."""
    if not isinstance(glob, str) or "/" not in glob.replace("\\", "/"):
        return glob
    if glob.startswith("~"):
        return str(Path(glob).expanduser())
    if Path(glob).is_absolute():
        return glob
    return f"{Path(folder).as_posix().rstrip('/')}/{glob.removeprefix('./')}"


def load_workspace_config(root: Path, base: Optional[Path] = None) -> tuple[dict, list[str]]:
    """Read ``bleu-ls.toml`` at ``root``: (camelCase settings dict, problems).
    Paths in it (``terms.files``) are relative to ``base`` (default: ``root``).

    Never raises.  No file gives ``({}, [])``.  Problems are sentences for
    the user about the file as a whole (unreadable, not TOML); problems with
    individual settings come from ``Settings.from_dict`` / ``merged`` when
    the caller applies the dict.
    """
    path = Path(root) / CONFIG_NAME
    if not path.is_file():
        return {}, []
    loads, decode_error = _toml_loads()
    if loads is None:
        return {}, [
            f"{path}: not read: reading TOML needs Python 3.11 or newer, or the 'tomli' "
            "package (pip install tomli); the file is ignored"
        ]
    try:
        data = path.read_bytes()
    except OSError as exc:
        return {}, [f"{path}: cannot read: {exc.strerror or exc}; the file is ignored"]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return {}, [f"{path}: not UTF-8 text (line {line}); the file is ignored"]
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        doc = loads(text)
    except decode_error as exc:
        msg = str(exc)
        lineno = getattr(exc, "lineno", None)
        if lineno and f"line {lineno}" not in msg:
            msg = f"{msg} (at line {lineno})"
        return {}, [f"{path}: not valid TOML: {msg}; the file is ignored"]
    except Exception as exc:  # a TOML parser bug must not take the server down
        return {}, [f"{path}: could not be parsed ({exc}); the file is ignored"]
    return resolve_paths(_camel_keys(doc), Path(base) if base is not None else Path(root).absolute()), []


def find_workspace_root(start: Path) -> Optional[Path]:
    """The nearest folder at or above ``start`` holding ``bleu-ls.toml``."""
    p = Path(start).absolute()
    if p.is_file() or not p.exists():
        p = p.parent
    for d in (p, *p.parents):
        if (d / CONFIG_NAME).is_file():
            return d
    return None
