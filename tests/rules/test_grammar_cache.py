"""Lark's parser tables for the grammar are kept in a cache file, so a new process loads them instead of
building them: in the user's cache directory, or `MEEPLE_CACHE_DIR`; none when that is empty. A damaged
or stale file is built again, never an error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PARSE = "from meeple.rules.syntax import parse; print(parse('count(pieces(\\'rope\\', owner=p)) + 1 >= 2'))"


def run(cache: str, **env: str) -> str:
    env = {**os.environ, "MEEPLE_CACHE_DIR": cache, **env}
    out = subprocess.run([sys.executable, "-c", PARSE], env=env, capture_output=True, text=True, check=True)
    assert out.stderr == ""
    return out.stdout


def test_the_tables_are_kept_in_the_cache_directory_and_read_back(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = run(str(cache))
    files = list(cache.iterdir())

    assert [f.name for f in files] == ["grammar.lark-tables"]
    stamp = files[0].stat().st_mtime_ns
    assert run(str(cache)) == first
    assert files[0].stat().st_mtime_ns == stamp  # read, not written again


def test_a_damaged_cache_file_is_built_again(tmp_path: Path) -> None:
    expected = run(str(tmp_path))
    (tmp_path / "grammar.lark-tables").write_bytes(b"not the tables\n\x00\x01")

    assert run(str(tmp_path)) == expected
    assert (tmp_path / "grammar.lark-tables").read_bytes().startswith(b"not the tables") is False


def test_an_empty_cache_directory_setting_keeps_no_file(tmp_path: Path) -> None:
    home, xdg = tmp_path / "home", tmp_path / "xdg"

    assert run("", HOME=str(home), XDG_CACHE_HOME=str(xdg)) == run(str(tmp_path / "elsewhere"))
    assert not home.exists() and not xdg.exists()


@pytest.mark.skipif(sys.platform != "linux", reason="XDG_CACHE_HOME names the cache directory on Linux only")
def test_without_a_setting_the_file_is_in_the_users_cache_directory(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "MEEPLE_CACHE_DIR"}
    env.update(HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "xdg"))
    subprocess.run([sys.executable, "-c", PARSE], env=env, capture_output=True, text=True, check=True)

    assert (tmp_path / "xdg" / "meeple" / "grammar.lark-tables").is_file()


def test_a_cache_directory_that_cannot_be_made_keeps_no_file(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")

    assert run(str(blocker / "cache")) == run(str(tmp_path / "ok"))
