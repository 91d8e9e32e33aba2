"""The release workflow and the GitHub Action, which only GitHub runs: their YAML parses, the
release covers every platform with a checksum per asset, and the action's installer
(scripts/install-release) takes a release binary only when its SHA-256 matches."""

import hashlib
import os
import stat
import subprocess
import tarfile
from pathlib import Path

import pytest
import yaml

from conftest import ROOT

RELEASE = ROOT / ".github" / "workflows" / "release.yml"
ACTION = ROOT / "action.yml"
INSTALL = ROOT / "scripts" / "install-release"
TARGETS = {
    "x86_64-unknown-linux-gnu",
    "aarch64-unknown-linux-gnu",
    "x86_64-unknown-linux-musl",
    "x86_64-apple-darwin",
    "aarch64-apple-darwin",
    "x86_64-pc-windows-msvc",
}


def load(path: Path) -> dict:
    # PyYAML reads `on:` as True (YAML 1.1); GitHub reads it as the key "on".
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    if True in document:
        document["on"] = document.pop(True)
    return document


def test_release_runs_on_version_tags_and_builds_every_platform():
    release = load(RELEASE)
    assert release["on"] == {"push": {"tags": ["v*"]}}
    jobs = release["jobs"]
    assert {row["target"] for row in jobs["cli"]["strategy"]["matrix"]["include"]} == TARGETS
    assert {row["target"] for row in jobs["wheels"]["strategy"]["matrix"]["include"]} == TARGETS
    assert set(jobs["release"]["needs"]) == {"cli", "wheels", "sdist", "npm", "crates"}


def test_musl_builds_install_musl_tools_for_mimalloc():
    steps = load(RELEASE)["jobs"]["cli"]["steps"]
    musl = [step for step in steps if "musl-tools" in str(step.get("run", ""))]
    assert musl and musl[0]["if"] == "matrix.musl"
    rows = load(RELEASE)["jobs"]["cli"]["strategy"]["matrix"]["include"]
    assert [row["target"] for row in rows if row.get("musl")] == ["x86_64-unknown-linux-musl"]


def test_wheels_are_built_by_maturin_action_at_the_pinned_maturin():
    steps = load(RELEASE)["jobs"]["wheels"]["steps"]
    maturin = [step for step in steps if str(step.get("uses", "")).startswith("PyO3/maturin-action@")]
    assert len(maturin) == 1
    pinned = (ROOT / "scripts" / "lib" / "setup.sh").read_text()
    assert f'MATURIN_VERSION="{maturin[0]["with"]["maturin-version"]}"' in pinned
    assert "crates/toolscope-py/Cargo.toml" in maturin[0]["with"]["args"]


def test_every_job_that_uploads_assets_writes_their_sha256():
    jobs = load(RELEASE)["jobs"]
    for name in ("cli", "wheels", "sdist", "npm", "crates"):
        runs = " ".join(str(step.get("run", "")) for step in jobs[name]["steps"])
        assert "sha256" in runs, name
    final = " ".join(str(step.get("run", "")) for step in jobs["release"]["steps"])
    assert "sha256sum -c SHA256SUMS" in final


def test_the_action_installs_through_install_release_and_splices_no_input_into_a_script():
    action = load(ACTION)
    steps = action["runs"]["steps"]
    assert "scripts/install-release" in steps[0]["run"]
    for step in steps:
        assert "${{" not in step["run"], f"{step['name']}: inputs go through env, not the script"


def make_release(tmp_path: Path, binary: bytes, ref: str = "v9.9.9") -> Path:
    target = "x86_64-unknown-linux-musl"
    folder = tmp_path / "build" / f"toolscope-{target}"
    folder.mkdir(parents=True)
    exe = folder / "toolscope"
    exe.write_bytes(binary)
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    releases = tmp_path / "releases"
    (releases / ref).mkdir(parents=True)
    asset = releases / ref / f"toolscope-{target}.tar.gz"
    with tarfile.open(asset, "w:gz") as archive:
        archive.add(folder, arcname=folder.name)
    digest = hashlib.sha256(asset.read_bytes()).hexdigest()
    (releases / ref / f"{asset.name}.sha256").write_text(f"{digest}  {asset.name}\n")
    return releases


def install(tmp_path: Path, releases: Path, ref: str, **env) -> subprocess.CompletedProcess:
    environment = {
        **os.environ,
        "RUNNER_OS": "Linux",
        "RUNNER_ARCH": "X64",
        "TOOLSCOPE_REF": ref,
        "TOOLSCOPE_RELEASES": releases.as_uri(),
        **env,
    }
    return subprocess.run(
        ["bash", str(INSTALL), str(tmp_path / "dest")],
        env=environment, capture_output=True, text=True, check=False,
    )


def fake_cargo(tmp_path: Path) -> Path:
    cargo = tmp_path / "cargo"
    cargo.write_text('#!/bin/sh\necho "$@" > "$(dirname "$0")/cargo-called"\n')
    cargo.chmod(0o755)
    return cargo


def test_a_release_tag_installs_the_release_binary(tmp_path, workspace_cli):
    releases = make_release(tmp_path, Path(workspace_cli).read_bytes())
    result = install(tmp_path, releases, "v9.9.9", CARGO=str(fake_cargo(tmp_path)))
    assert result.returncode == 0, result.stderr
    installed = tmp_path / "dest" / "bin" / "toolscope"
    version = subprocess.run([installed, "--version"], capture_output=True, text=True)
    assert version.stdout.startswith("toolscope ")
    assert not (tmp_path / "cargo-called").exists()


def test_a_binary_whose_checksum_differs_is_refused(tmp_path, workspace_cli):
    releases = make_release(tmp_path, Path(workspace_cli).read_bytes())
    (asset,) = (releases / "v9.9.9").glob("*.tar.gz")
    asset.write_bytes(asset.read_bytes() + b"tampered")
    result = install(tmp_path, releases, "v9.9.9", CARGO=str(fake_cargo(tmp_path)))
    assert result.returncode == 2
    assert "SHA-256" in result.stderr
    assert not (tmp_path / "dest" / "bin" / "toolscope").exists()
    assert not (tmp_path / "cargo-called").exists()


@pytest.mark.parametrize("ref,runner", [("main", "X64"), ("v9.9.9", "ARM64"), ("v1.0.0", "X64")])
def test_no_matching_release_asset_builds_from_source(tmp_path, ref, runner):
    releases = make_release(tmp_path, b"#!/bin/sh\n")
    result = install(tmp_path, releases, ref, RUNNER_ARCH=runner, CARGO=str(fake_cargo(tmp_path)))
    assert result.returncode == 0, result.stderr
    called = (tmp_path / "cargo-called").read_text().split()
    assert called[:3] == ["install", "--locked", "--path"]
    assert called[3].endswith("crates/toolscope-cli")
    assert not (tmp_path / "dest" / "bin" / "toolscope").exists()
