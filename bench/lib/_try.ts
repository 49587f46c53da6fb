import { runMailBench } from './mail.ts';
const t = performance.now();
const r = await runMailBench({ count: Number(process.env.N ?? 2000), onProgress: (l) => console.log(l) });
console.log(JSON.stringify(r, null, 1));
console.log('took', ((performance.now() - t) / 1000).toFixed(1));
process.exit(0);
