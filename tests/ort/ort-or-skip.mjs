// ort-or-skip.mjs: onnxruntime-node for a TAP test, or, when it is not
// installed (.ci/install-ort.sh), the skip of the whole test: the plan
// "1..0 # SKIP" and exit 0 (TAP's skip; 77 would be an error).
export async function ortOrSkip() {
  try {
    return (await import('onnxruntime-node')).default;
  } catch (e) {
    console.log(`1..0 # SKIP onnxruntime-node is not installed (${e.code || e.message})`);
    process.exit(0);
  }
}
