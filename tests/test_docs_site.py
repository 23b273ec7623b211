"""The documentation site builds, strict: every page of mkdocs.yml, and the library's reference
rendered from the docstrings (docs/api.md), with no warning (a broken link, a missing object)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from support import REPO


def test_the_documentation_site_builds_strict_with_the_librarys_reference(tmp_path: Path) -> None:
    # the reference is read from the sources: a folder named as the package, wherever the checkout is
    (tmp_path / "path").mkdir()
    (tmp_path / "path" / "santorini").symlink_to(REPO, target_is_directory=True)
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"INHERIT: {REPO / 'mkdocs.yml'}\ndocs_dir: {REPO / 'docs'}\nplugins:\n  - search\n"
                      f"  - mkdocstrings:\n      handlers:\n        python:\n          paths: [{tmp_path / 'path'}]\n",
                      encoding="utf-8")
    site = tmp_path / "site"
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config),
                             "-d", str(site)], capture_output=True, text=True, check=False, cwd=tmp_path)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    page = (site / "api" / "index.html").read_text(encoding="utf-8")
    for name in ("Game", "Turn", "play", "undo", "turns", "IllegalTurn", "SantoriniError"):
        assert name in page
