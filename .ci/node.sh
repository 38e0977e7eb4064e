# Puts a maintained Node LTS first on PATH where the machine's is older than the project needs
# (package.json's engines). The npm registry carries Node's binaries as packages, so nothing is
# downloaded from anywhere else. Sourced by .ci/run; a newcomer on an older Node runs
# `source .ci/node.sh` once in their shell.
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(node_major)" -lt 22 ]; then
  case "$(uname -m)" in
    x86_64) node_arch=x64 ;;
    aarch64 | arm64) node_arch=arm64 ;;
    *) node_arch=$(uname -m) ;;
  esac
  node_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.node"
  node_bin="$node_dir/node_modules/node-linux-$node_arch/bin"
  if [ ! -x "$node_bin/node" ]; then
    echo "ci: Node $(node -v 2>/dev/null || echo none) is older than 22; bringing Node 24 from the npm registry"
    npm install --prefix "$node_dir" --no-save --no-audit --no-fund --no-package-lock "node-linux-$node_arch@24" >/dev/null
  fi
  export PATH="$node_bin:$PATH"
  echo "ci: using Node $(node -v) from $node_bin"
fi
