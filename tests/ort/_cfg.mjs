import ort from 'onnxruntime-node';
const [m, out] = process.argv.slice(2);
await ort.InferenceSession.create(m, { graphOptimizationLevel: 'disabled', extra: { session: { node_partition_config_file: out } } });
