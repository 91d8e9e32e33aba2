# shellcheck shell=bash
# Shared setup for scripts/serve and scripts/test: each ensure_* function installs one thing only
# when it is missing (so a second run installs nothing) and prints one short progress line.
#
# The wasm32 toolchain comes from one of two places:
#   - rustup's own target (`rustup target add wasm32-unknown-unknown`), the ordinary online path;
#   - Debian's rustc-web (Rust 1.96) plus the standard library's source, building std for wasm32
#     with -Zbuild-std. Used where rustup's servers are out of reach (they hang, not fail).
# Native builds always use whatever `cargo` is first on PATH (rustup's).
#
# After ensure_wasm_toolchain, run wasm builds through `wasm_cargo …` and `wasm_env trunk …`.
# Both use their own target dir (target/wasm), so the native and the wasm compiler never
# invalidate each other's artifacts.

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# Pinned tool versions. wasm-bindgen-cli must equal the `wasm-bindgen = "=…"` pin in Cargo.toml
# (read from there); Trunk 0.22 needs a newer rustc than stable 1.95, and without --locked 0.21
# resolves an incompatible lightningcss.
TRUNK_VERSION="0.21.14"
# Binaryen's wasm-opt for the release site, from the npm registry (compiled to JS and wasm, so it
# runs under node on any OS). Must equal Trunk.toml's [tools] wasm_opt = "version_N".
BINARYEN_VERSION="132.0.0"
WASM_TARGET="wasm32-unknown-unknown"
# The Python package's build and test tools (scripts/test), from PyPI. maturin builds the wheel
# (its own venv in .tools/maturin); pytest and PyYAML go into each test run's fresh venv.
MATURIN_VERSION="1.16.0"
PYTEST_VERSION="9.0.3"
PYYAML_VERSION="6.0.3"
# rustup hangs rather than fails when its servers are unreachable.
RUSTUP_TIMEOUT="${TOOLSCOPE_RUSTUP_TIMEOUT:-60}"
# Debian's offline toolchain (bookworm-security).
DEBIAN_WASM_PACKAGES=(rustc-web cargo-web rust-web-src lld-19)
DEBIAN_WASM_LINKER="wasm-ld-19"

# "rustup" or "debian", chosen by ensure_wasm_toolchain.
WASM_TOOLCHAIN=""
# The directory holding binaryen's wasm-opt, set by ensure_wasm_opt.
WASM_OPT_DIR=""
# Where every wasm build puts its artifacts.
WASM_TARGET_DIR="$ROOT/target/wasm"

say() { printf 'setup: %s\n' "$*"; }
step() { printf '\n==> %s\n' "$*"; }
die() {
    printf 'setup: error: %s\n' "$*" >&2
    exit 2
}

# Seconds since the epoch, for "took Ns" on the slow (cold) steps.
now() { date +%s; }

# Run as root: directly when we are root (CI), through sudo otherwise.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        die "need root for: $* (no sudo found)"
    fi
}

# ~/.cargo/bin (rustup and `cargo install`) first on PATH even in a non-login shell.
ensure_cargo_on_path() {
    local cargo_bin="${CARGO_HOME:-$HOME/.cargo}/bin"
    case ":$PATH:" in
        *":$cargo_bin:"*) ;;
        *) [ -d "$cargo_bin" ] && export PATH="$cargo_bin:$PATH" ;;
    esac
    command -v cargo >/dev/null 2>&1 || die "cargo not found: install Rust with rustup (https://rustup.rs)"
}

deb_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q '^install ok installed$'
}

APT_UPDATED=""
# Install the Debian packages that are not installed yet; `apt-get update` only if any are.
apt_install() {
    local missing=() pkg
    for pkg in "$@"; do
        deb_installed "$pkg" || missing+=("$pkg")
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    command -v apt-get >/dev/null 2>&1 || die "missing ${missing[*]} and no apt-get to install them"
    if [ -z "$APT_UPDATED" ]; then
        say "apt-get update"
        as_root apt-get update -qq >/dev/null
        APT_UPDATED=1
    fi
    say "apt-get install ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# rustfmt and clippy for the native toolchain.
ensure_native_components() {
    ensure_cargo_on_path
    local missing=()
    cargo fmt --version >/dev/null 2>&1 || missing+=(rustfmt)
    cargo clippy --version >/dev/null 2>&1 || missing+=(clippy)
    if [ "${#missing[@]}" -gt 0 ]; then
        say "rustup component add ${missing[*]}"
        timeout "$RUSTUP_TIMEOUT" rustup component add "${missing[@]}" ||
            die "could not install ${missing[*]} with rustup"
    fi
    say "native toolchain $(rustc --version | cut -d' ' -f2) with rustfmt and clippy ... ok"
}

rustup_has_wasm_target() {
    command -v rustup >/dev/null 2>&1 &&
        rustup target list --installed 2>/dev/null | grep -qx "$WASM_TARGET"
}

debian_wasm_toolchain_installed() {
    local pkg
    for pkg in "${DEBIAN_WASM_PACKAGES[@]}"; do
        deb_installed "$pkg" || return 1
    done
}

# Pick (and if needed install) the wasm32 toolchain: rustup's target if it is there or can be
# fetched, else Debian's rustc-web.
# An installed Debian toolchain is used before trying rustup's download, so that a second run
# never waits for a download that timed out the first time.
ensure_wasm_toolchain() {
    ensure_cargo_on_path
    # TOOLSCOPE_WASM_TOOLCHAIN=debian|rustup forces one route (to test the other one).
    local forced="${TOOLSCOPE_WASM_TOOLCHAIN:-}"
    case "$forced" in
        "" | debian | rustup) ;;
        *) die "TOOLSCOPE_WASM_TOOLCHAIN must be debian or rustup, not $forced" ;;
    esac
    if [ "$forced" = debian ]; then
        apt_install "${DEBIAN_WASM_PACKAGES[@]}"
        WASM_TOOLCHAIN=debian
    elif rustup_has_wasm_target; then
        WASM_TOOLCHAIN=rustup
    elif [ -z "$forced" ] && debian_wasm_toolchain_installed; then
        WASM_TOOLCHAIN=debian
    else
        local started
        started=$(now)
        say "wasm32 target via rustup (timeout ${RUSTUP_TIMEOUT}s) ..."
        if command -v rustup >/dev/null 2>&1 &&
            timeout "$RUSTUP_TIMEOUT" rustup target add "$WASM_TARGET" >/dev/null 2>&1; then
            WASM_TOOLCHAIN=rustup
        else
            [ "$forced" = rustup ] && die "rustup could not fetch the wasm32 target"
            say "rustup could not fetch the wasm32 target: falling back to Debian's rustc-web"
            apt_install "${DEBIAN_WASM_PACKAGES[@]}"
            WASM_TOOLCHAIN=debian
        fi
        say "wasm32 toolchain installed in $(($(now) - started))s"
    fi
    if [ "$WASM_TOOLCHAIN" = debian ]; then
        say "wasm32 target via Debian rustc-web $(/usr/bin/rustc --version | cut -d' ' -f2) (build-std) ... ok"
    else
        say "wasm32 target via rustup $(rustc --version | cut -d' ' -f2) ... ok"
    fi
}

# Run a command in the wasm build environment. For Debian's toolchain: its rustc with the std
# source (-Zbuild-std needs RUSTC_BOOTSTRAP on a stable compiler), lld as linker, and its cargo
# first on PATH for tools that call `cargo` (Trunk) - through a shim dir, so that nothing else of
# /usr/bin (such as Debian's old wasm-opt) shadows what ~/.cargo/bin provides.
wasm_env() {
    [ -n "$WASM_TOOLCHAIN" ] || die "wasm_env before ensure_wasm_toolchain"
    # No DWARF in debug wasm builds: browsers ignore it without a devtools extension, and it
    # costs a quarter of the build time (Trunk build of the page: 6m19s with, 4m36s without).
    # Panic messages keep their file:line either way.
    local debuginfo="${CARGO_PROFILE_DEV_DEBUG:-0}"
    if [ "$WASM_TOOLCHAIN" = rustup ]; then
        CARGO_PROFILE_DEV_DEBUG="$debuginfo" CARGO_TARGET_DIR="$WASM_TARGET_DIR" "$@"
        return
    fi
    local shim="$ROOT/target/wasm-toolchain-bin"
    if [ ! -x "$shim/cargo" ]; then
        mkdir -p "$shim"
        ln -sf /usr/bin/cargo "$shim/cargo"
    fi
    PATH="$shim:$PATH" \
        CARGO_PROFILE_DEV_DEBUG="$debuginfo" \
        CARGO=/usr/bin/cargo \
        RUSTC=/usr/bin/rustc \
        RUSTDOC=/usr/bin/rustdoc \
        RUSTC_BOOTSTRAP=1 \
        CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
        CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$DEBIAN_WASM_LINKER" \
        CARGO_TARGET_DIR="$WASM_TARGET_DIR" \
        "$@"
}

# Clippy matching the wasm32 toolchain: rustup's is there already (ensure_native_components);
# Debian's rustc-web needs its own.
ensure_wasm_clippy() {
    [ -n "$WASM_TOOLCHAIN" ] || die "ensure_wasm_clippy before ensure_wasm_toolchain"
    if [ "$WASM_TOOLCHAIN" = debian ]; then
        apt_install rust-web-clippy
        say "wasm32 clippy $(/usr/bin/cargo-clippy clippy --version 2>/dev/null | awk '{print $2}') (Debian rust-web-clippy) ... ok"
    else
        say "wasm32 clippy $(cargo clippy --version 2>/dev/null | awk '{print $2}') (rustup) ... ok"
    fi
}

# `cargo …` for wasm32 with the chosen toolchain.
wasm_cargo() {
    wasm_env cargo "$@"
}

# `cargo clippy …` for wasm32. Debian's cargo-clippy must be called directly: cargo looks up
# subcommands in ~/.cargo/bin first and would find rustup's clippy, which cannot read the std
# that Debian's rustc builds.
wasm_clippy() {
    if [ "$WASM_TOOLCHAIN" = debian ]; then
        wasm_env /usr/bin/cargo-clippy clippy "$@"
    else
        wasm_env cargo clippy "$@"
    fi
}

# The wasm-bindgen version the app is built against: the exact pin in Cargo.toml.
wasm_bindgen_pin() {
    local pin
    pin=$(sed -n 's/^wasm-bindgen *= *"=\([0-9][0-9.]*\)".*/\1/p' "$ROOT/Cargo.toml" | head -n1)
    [ -n "$pin" ] || die 'Cargo.toml must pin wasm-bindgen exactly (wasm-bindgen = "=0.2.x")'
    printf '%s\n' "$pin"
}

# Install `cargo install` tool $1 (binary $2) at exactly version $3, extra cargo args after.
cargo_install_exact() {
    local crate="$1" bin="$2" version="$3"
    shift 3
    if command -v "$bin" >/dev/null 2>&1 &&
        [ "$("$bin" --version 2>/dev/null | awk '{print $2}')" = "$version" ]; then
        say "$bin $version ... ok"
        return 0
    fi
    local started
    started=$(now)
    say "cargo install $crate --version $version $* (several minutes, once) ..."
    cargo install "$crate" --version "$version" "$@" --quiet ||
        die "cargo install $crate $version failed"
    say "$bin $version installed in $(($(now) - started))s"
}

ensure_wasm_bindgen() {
    ensure_cargo_on_path
    local version trunk_pin
    version=$(wasm_bindgen_pin)
    trunk_pin=$(sed -n 's/^wasm_bindgen *= *"\(.*\)".*/\1/p' "$ROOT/Trunk.toml" | head -n1)
    [ "$trunk_pin" = "$version" ] ||
        die "Trunk.toml [tools] wasm_bindgen = \"$trunk_pin\" differs from Cargo.toml's pin $version"
    # --locked fails for this crate (a locked dependency is no longer on the registry).
    cargo_install_exact wasm-bindgen-cli wasm-bindgen "$version"
}

ensure_trunk() {
    ensure_cargo_on_path
    cargo_install_exact trunk trunk "$TRUNK_VERSION" --locked
    # Trunk.toml's post-build hook (scripts/csp-hashes) runs on Python's standard library.
    command -v python3 >/dev/null 2>&1 || apt_install python3
}

# Binaryen's wasm-opt for `trunk build --release` (scripts/build-site), installed with npm into
# .tools/binaryen and put first on PATH by wasm_opt_env only. Trunk (offline) runs the first
# `wasm-opt` on PATH and refuses it unless `wasm-opt --version` names Trunk.toml's version, so
# Debian's wasm-opt 108 (whose output breaks wasm-bindgen's reference types) is never used.
# Debug builds (scripts/test, scripts/serve) do not run wasm-opt and do not need it.
ensure_wasm_opt() {
    local major="${BINARYEN_VERSION%%.*}" trunk_pin
    trunk_pin=$(sed -n 's/^wasm_opt *= *"\(.*\)".*/\1/p' "$ROOT/Trunk.toml" | head -n1)
    [ "$trunk_pin" = "version_$major" ] ||
        die "Trunk.toml [tools] wasm_opt = \"$trunk_pin\" differs from binaryen $BINARYEN_VERSION"
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
        apt_install nodejs npm
    fi
    local prefix="$ROOT/.tools/binaryen"
    local bin="$prefix/node_modules/binaryen/bin/wasm-opt"
    if [ ! -x "$bin" ] || [ "$("$bin" --version 2>/dev/null | awk '{print $3}')" != "$major" ]; then
        local started
        started=$(now)
        say "npm install binaryen@$BINARYEN_VERSION into .tools/binaryen ..."
        mkdir -p "$prefix"
        npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error \
            "binaryen@$BINARYEN_VERSION" >/dev/null || die "npm install binaryen@$BINARYEN_VERSION failed"
        [ -x "$bin" ] || die "binaryen@$BINARYEN_VERSION has no bin/wasm-opt"
        say "binaryen installed in $(($(now) - started))s"
    fi
    # A directory holding only wasm-opt, so that nothing else of binaryen's shadows other tools.
    mkdir -p "$prefix/path"
    ln -sf "$bin" "$prefix/path/wasm-opt"
    WASM_OPT_DIR="$prefix/path"
    say "wasm-opt $("$bin" --version | awk '{print $3}') (binaryen from npm) ... ok"
}

# Run a command with ensure_wasm_opt's wasm-opt first on PATH.
wasm_opt_env() {
    [ -n "${WASM_OPT_DIR:-}" ] || die "wasm_opt_env before ensure_wasm_opt"
    PATH="$WASM_OPT_DIR:$PATH" "$@"
}

# Chromium for the page tests. Never let a test tool download its own browser.
ensure_chromium() {
    if ! command -v chromium >/dev/null 2>&1; then
        local started
        started=$(now)
        apt_install chromium
        say "chromium installed in $(($(now) - started))s"
    fi
    export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
    export CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium)}"
    say "chromium $("$CHROMIUM_PATH" --version 2>/dev/null | awk '{print $2}') ... ok"
}

# node and the page tests' npm dependencies (tests/package.json), installed with `npm ci` only
# when tests/node_modules is missing or older than tests/package-lock.json.
ensure_node_deps() {
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
        apt_install nodejs npm
    fi
    say "node $(node --version) ... ok"
    local tests="$ROOT/tests"
    [ -f "$tests/package.json" ] || return 0
    local stamp="$tests/node_modules/.package-lock.json"
    if [ -f "$stamp" ] && { [ ! -f "$tests/package-lock.json" ] || [ "$stamp" -nt "$tests/package-lock.json" ]; }; then
        say "tests/node_modules ... ok"
        return 0
    fi
    export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
    if [ -f "$tests/package-lock.json" ]; then
        say "npm ci in tests/"
        (cd "$tests" && npm ci --no-audit --no-fund --loglevel=error)
    else
        say "npm install in tests/ (no package-lock.json yet)"
        (cd "$tests" && npm install --no-audit --no-fund --loglevel=error)
    fi
    # npm may write package-lock.json after node_modules: mark node_modules as the newer.
    touch "$stamp"
}

# Python packages the tests compare against (scikit-learn's metrics, the jsonschema reference,
# BFCL's AST checker). Into the current python3 if pip may install there, else into a venv in
# .tools/venv (Debian's system python refuses pip installs, PEP 668). bfcl-eval is pinned and
# installed without its dependencies (model clients, torch): its checker needs none of them.
PYTHON_PACKAGES=(scikit-learn jsonschema)
PYTHON_MODULES="import sklearn, jsonschema"
BFCL_EVAL_VERSION="2026.3.23"
BFCL_EVAL_CHECK="import importlib.metadata as m; assert m.version('bfcl-eval') == '$BFCL_EVAL_VERSION'"

# use_venv: switch python3 to the venv in .tools/venv, creating it if needed.
use_venv() {
    local venv="$ROOT/.tools/venv"
    if [ ! -x "$venv/bin/python3" ]; then
        say "python3 is externally managed: using a venv in .tools/venv"
        python3 -m venv "$venv" >/dev/null 2>&1 || {
            apt_install python3-venv
            python3 -m venv "$venv"
        }
    fi
    export PATH="$venv/bin:$PATH"
}

# pip_install ARGS…: pip install into python3, or into the venv when python3 refuses.
pip_install() {
    if ! python3 -m pip install --quiet --disable-pip-version-check "$@" 2>/dev/null; then
        use_venv
        python3 -m pip install --quiet --disable-pip-version-check "$@"
    fi
}

ensure_python_deps() {
    if [ -x "$ROOT/.tools/venv/bin/python3" ]; then
        export PATH="$ROOT/.tools/venv/bin:$PATH"
    fi
    if ! command -v python3 >/dev/null 2>&1; then
        apt_install python3 python3-pip python3-venv
    fi
    if ! python3 -c "$PYTHON_MODULES" >/dev/null 2>&1; then
        say "pip install ${PYTHON_PACKAGES[*]}"
        pip_install "${PYTHON_PACKAGES[@]}"
        python3 -c "$PYTHON_MODULES" || die "python packages ${PYTHON_PACKAGES[*]} not importable"
    fi
    if ! python3 -c "$BFCL_EVAL_CHECK" >/dev/null 2>&1; then
        say "pip install --no-deps bfcl-eval==$BFCL_EVAL_VERSION"
        # A venv made for it lacks the packages above: install them there too.
        pip_install --no-deps "bfcl-eval==$BFCL_EVAL_VERSION"
        python3 -c "$PYTHON_MODULES" >/dev/null 2>&1 || pip_install "${PYTHON_PACKAGES[@]}"
        python3 -c "$BFCL_EVAL_CHECK" || die "bfcl-eval $BFCL_EVAL_VERSION not importable"
    fi
    # Tests that compare against Python run this interpreter (it may be the venv's).
    TOOLSCOPE_PYTHON="$(command -v python3)"
    export TOOLSCOPE_PYTHON
    say "python $(python3 -c 'import platform; print(platform.python_version())') with ${PYTHON_PACKAGES[*]} bfcl-eval ... ok"
}

# maturin, which builds the Python wheel (crates/toolscope-py), in its own venv in
# .tools/maturin: pinned, and never in the way of the system python or .tools/venv. PyPI ships it
# as a wheel with the binary inside, so nothing is compiled. Sets MATURIN.
ensure_maturin() {
    local venv="$ROOT/.tools/maturin"
    MATURIN="$venv/bin/maturin"
    if [ ! -x "$MATURIN" ] || [ "$("$MATURIN" --version 2>/dev/null | awk '{print $2}')" != "$MATURIN_VERSION" ]; then
        local started
        started=$(now)
        say "pip install maturin==$MATURIN_VERSION into .tools/maturin"
        if [ ! -x "$venv/bin/python3" ]; then
            python3 -m venv "$venv" >/dev/null 2>&1 || {
                apt_install python3-venv
                python3 -m venv "$venv"
            }
        fi
        "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check \
            "maturin==$MATURIN_VERSION" || die "pip install maturin==$MATURIN_VERSION failed"
        say "maturin installed in $(($(now) - started))s"
    fi
    export MATURIN PYTEST_VERSION PYYAML_VERSION
    say "maturin $("$MATURIN" --version | awk '{print $2}') ... ok"
}
