"""What loading a rule file works out from its text, kept on disk so that a new process skips that work.

Most of a load is work whose result depends on text alone: composing the YAML (PyYAML's scanner is pure
Python), checking it against the schema, parsing each rule with Lark, and compiling the generated Python
source. Each result is kept under a digest of the text it came from, in a store per rule file (by its
path; a seed game's name stands for its file): a file loaded again unchanged finds them all, an edited one
finds those of the parts it did not change (its other top-level sections' YAML and schema checks, its other
rules, their code), and a variant also looks in the
stores of the files it extends. A store keeps only what its last load used, so it does not grow as the
file is edited.

The results depend on meeple's own code as well: a store is stamped with the versions of Python and of
the libraries whose output it holds, and with a digest of the grammar, the schema and the front end's
modules; a store with another stamp is ignored and replaced. A store that cannot be read is ignored and
one that cannot be written is not written: the cache can make a load faster, never make it fail.

The directory is the user's cache directory (found by platformdirs), or `MEEPLE_CACHE_DIR` when set; an
empty `MEEPLE_CACHE_DIR` keeps nothing. The stores are pickles, trusted as Python trusts the bytecode it
keeps beside a module: the directory is the user's own, and nothing else should write to it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import pickle
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from types import CodeType
from typing import Any

import platformdirs

from meeple.data import data_dir

_FORMAT = 1  # of the store's file; another number is another stamp

_HERE = Path(__file__).resolve().parent


_off: ContextVar[bool] = ContextVar("meeple_cache_off", default=False)


@contextmanager
def off() -> Iterator[None]:
    """Within the block nothing is read from the cache or kept in it (`meeple --no-cache`)."""
    token = _off.set(True)
    try:
        yield
    finally:
        _off.reset(token)


def directory() -> Path | None:
    """The cache directory, made if need be; None when caching is off or the directory cannot be made."""
    if _off.get():
        return None
    root = os.environ.get("MEEPLE_CACHE_DIR")
    if root is None:
        root = platformdirs.user_cache_dir("meeple", appauthor=False)
    if not root:
        return None
    try:
        Path(root).mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return Path(root)


def digest(*parts: str | bytes) -> str:
    h = hashlib.blake2b(digest_size=20)
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


@lru_cache(maxsize=1)
def stamp() -> str:
    """What the kept results depend on besides their texts: Python, the libraries that made them (by the
    place and time of their files, which an upgrade changes), and the front end's own files by content."""
    parts: list[str | bytes] = [str(_FORMAT), sys.version, str(pickle.HIGHEST_PROTOCOL)]
    for module in ("yaml", "lark", "jsonschema"):  # found, not imported: a load from the cache needs none
        spec = importlib.util.find_spec(module)
        where = Path(spec.origin if spec is not None and spec.origin else module)
        try:
            info = where.stat()
            parts.append(f"{where}:{info.st_size}:{info.st_mtime_ns}")
        except OSError:
            parts.append(str(where))
    own = [_HERE / "errors.py", _HERE / "cache.py", *sorted((_HERE / "rules").glob("*.py"))]
    own += sorted(data_dir("grammar").glob("*.lark")) + sorted(data_dir("schema").glob("*.json"))
    for path in own:
        try:
            parts.append(path.read_bytes())
        except OSError:
            parts.append(str(path))
    return digest(*parts)


class Store:
    """The results one rule file's loads keep: read at the start of a load, written at its end when the
    load made any new one (then holding only those the load used)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.kept: dict[tuple[str, str], Any] = {}
        self.used: dict[tuple[str, str], Any] = {}
        self.added = False
        self.bases: dict[Path, Store] = {}  # the stores of the files this one extends, read, never written
        if path is None:
            return
        try:
            with path.open("rb") as f:
                found = pickle.load(f)
        except Exception:  # noqa: BLE001 - missing, unreadable or damaged: start empty
            return
        if isinstance(found, dict) and found.get("stamp") == stamp() and isinstance(found.get("kept"), dict):
            self.kept = found["kept"]
            try:
                os.utime(path)  # the stores least recently used are the first let go (`save`)
            except OSError:
                pass

    def get(self, kind: str, key: str) -> Any:
        value = self.used.get((kind, key))
        if value is None:
            value = self.kept.get((kind, key))
            if value is None:
                for base in self.bases.values():
                    value = base.kept.get((kind, key))
                    if value is not None:
                        self.added = True  # found in a base's store: kept in this one from now on
                        break
            if value is not None:
                self.used[(kind, key)] = value
        return value

    def read_base(self, path: Path) -> None:
        """Look in the store of the rule file at `path` too (a file this one extends, loaded on its own
        before, say a seed game a variant changes): its rules are mostly this file's rules."""
        if self.path is None or path in self.bases:
            return
        where = self.path.parent / f"{file_key(path)}.pickle"
        if where != self.path:
            self.bases[path] = Store(where)

    def put(self, kind: str, key: str, value: Any) -> None:
        self.used[(kind, key)] = value
        self.added = True

    def save(self) -> None:
        if not self.added or self.path is None:
            return
        folder = self.path.parent
        try:
            folder.mkdir(exist_ok=True)
            with tempfile.NamedTemporaryFile("wb", dir=folder, suffix=".tmp", delete=False) as f:
                pickle.dump({"stamp": stamp(), "kept": self.used}, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(f.name, self.path)
        except Exception:  # noqa: BLE001 - a full disk or an unwritable folder: keep nothing this time
            try:
                os.unlink(f.name)
            except (OSError, UnboundLocalError):
                pass
            return
        let_go(folder, MAX_STORES)


MAX_STORES = 100  # rule files whose loads are kept; past that, the least recently used are let go


def let_go(folder: Path, keep: int) -> None:
    """Delete all but the `keep` most recently used stores in `folder`."""
    try:
        stores = [(p.stat().st_mtime_ns, p) for p in folder.glob("*.pickle")]
    except OSError:
        return
    if len(stores) <= keep:
        return
    stores.sort()
    for _, old in stores[: len(stores) - keep]:
        try:
            old.unlink()
        except OSError:
            pass


def contents(folder: Path) -> tuple[int, int]:
    """How many rule files have their loads kept in the cache directory `folder`, and the bytes it holds."""
    files = [p for p in folder.rglob("*") if p.is_file()]
    stores = sum(1 for p in files if p.parent.name == "loads" and p.suffix == ".pickle")
    return stores, sum(p.stat().st_size for p in files)


def clear(folder: Path) -> int:
    """Delete what meeple keeps in the cache directory `folder` (its stores and the grammar's tables);
    the number of files deleted. Other files there are left alone."""
    kept = [*(folder / "loads").glob("*.pickle"), *(folder / "loads").glob("*.tmp")]
    kept += [p for p in (folder / "grammar.lark-tables",) if p.exists()]
    removed = 0
    for path in kept:
        try:
            path.unlink()
            removed += 1
        except OSError:
            pass
    return removed


_active: ContextVar[Store | None] = ContextVar("meeple_cache_store", default=None)


@contextmanager
def kept_for(source: str | Path) -> Iterator[None]:
    """Within the block, what a load works out is looked up in, and added to, the store of `source` (a
    rule file's path, or a seed game's name). The store is written when the block ends without an error;
    a block inside another uses the outer block's store."""
    if _active.get() is not None:
        yield
        return
    folder = directory()
    if folder is None:
        yield
        return
    try:
        path: Path | None = Path(source).resolve() if Path(source).is_file() else None
    except (OSError, ValueError, RuntimeError):  # no file by that name (too long, say): left to the load
        path = None
    # a path (a seed game's name is given as the file it names), else what the load will report
    where = file_key(path) if path is not None else digest("name", str(source), os.getcwd())
    store = Store(folder / "loads" / f"{where}.pickle")
    token = _active.set(store)
    try:
        yield
    finally:
        _active.reset(token)
    store.save()


def file_key(path: Path) -> str:
    """The name of the store of the rule file at `path` (resolved)."""
    return digest("path", str(path))


def reading(path: str | Path) -> None:
    """The load under way reads the rule file at `path`: what is kept for that file is looked in too."""
    store = _active.get()
    if store is not None:
        try:
            store.read_base(Path(path).resolve())
        except (OSError, ValueError, RuntimeError):
            pass


def lookup(kind: str, key: str) -> Any:
    """The value kept under `kind` and `key` for the load under way; None if none is (or no load is)."""
    store = _active.get()
    return None if store is None else store.get(kind, key)


def keep(kind: str, key: str, value: Any) -> None:
    """Keep `value` (not None) for later loads, if a load is under way."""
    store = _active.get()
    if store is not None:
        store.put(kind, key, value)


def compiled(source: str, filename: str, mode: str = "exec") -> CodeType:
    """`compile(source, filename, mode)`, the code kept for later loads."""
    store = _active.get()
    if store is None:
        return compile(source, filename, mode)
    key = digest(filename, mode, source)
    found = store.get("code", key)
    if found is not None:
        try:
            code = marshal.loads(found)
            if isinstance(code, CodeType):
                return code
        except (ValueError, EOFError, TypeError):
            pass
    code = compile(source, filename, mode)
    store.put("code", key, marshal.dumps(code))
    return code
