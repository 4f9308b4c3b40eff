// Bundle the extension and its runtime dependencies into dist/extension.js.
import { build } from "esbuild";

await build({
  entryPoints: ["src/extension.ts"],
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node18",
  external: ["vscode"],
  outfile: "dist/extension.js",
  sourcemap: false,
  minify: process.argv.includes("--minify"),
  logLevel: "warning",
});
