// The JSON document a child process printed: all of stdout, or else its
// last line that starts with '{' or '['. ONNX Runtime 1.30 writes lines of
// its own to stdout while it plans several streams ("r172 reused by r173 as
// input", from std::cout in its allocation planner), before the JSON.
export function lastJson(stdout) {
  try {
    return JSON.parse(stdout);
  } catch (e) {
    // ORT's lines first, then one line of JSON.
  }
  const lines = (stdout || '').split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i].trim();
    if (line.startsWith('{') || line.startsWith('[')) return JSON.parse(line);
  }
  return JSON.parse(stdout);
}

// The lines ORT printed about its multi-stream alias reuse: [{input, output}].
export function ortReuseLines(stdout) {
  const out = [];
  for (const line of (stdout || '').split('\n')) {
    const m = /^(.*) reused by (.*) as input$/.exec(line);
    if (m) out.push({ input: m[1], output: m[2] });
  }
  return out;
}
