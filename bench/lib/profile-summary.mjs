// Summarises a V8 .cpuprofile: self time by function and by package/file (top N).
//   node bench/lib/profile-summary.mjs file.cpuprofile [N]
import { readFileSync } from 'node:fs';

export function summarise(file, top = 25) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i += 1) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (dt[i] ?? 0));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map();
  const area = new Map();
  for (const [id, us] of self) {
    const { callFrame: f } = byId.get(id);
    const where = f.url ? f.url.replace(/^file:\/\//, '').replace(/.*node_modules\//, 'nm:').replace(/.*\/server\/dist\//, 'server:') : '(native)';
    const key = `${f.functionName || '(anonymous)'}  ${where}:${f.lineNumber + 1}`;
    fn.set(key, (fn.get(key) ?? 0) + us);
    const pkg = where.startsWith('nm:') ? where.split('/').slice(0, where.startsWith('nm:@') ? 2 : 1).join('/') : where.startsWith('server:') ? where : f.functionName.startsWith('(') ? f.functionName : where.replace(/:.*/, '');
    area.set(pkg, (area.get(pkg) ?? 0) + us);
  }
  const fmt = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`).join('\n');
  return `total ${(total / 1e6).toFixed(2)} s sampled\n-- by function --\n${fmt(fn)}\n-- by package/file --\n${fmt(area)}`;
}

if (process.argv[1]?.endsWith('profile-summary.mjs')) console.log(summarise(process.argv[2], Number(process.argv[3] ?? 25)));

/** Inclusive time (synchronous segments) of functions whose "name file" matches `pattern`. */
export function inclusive(file, pattern, top = 40) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n) => {
    const f = n.callFrame;
    const where = f.url ? f.url.replace(/^file:\/\//, '').replace(/.*node_modules\//, 'nm:').replace(/.*\/server\/dist\//, 'server:') : '(native)';
    return `${f.functionName || '(anonymous)'}  ${where}:${f.lineNumber + 1}`;
  };
  const incl = new Map();
  let total = 0;
  const re = new RegExp(pattern);
  for (let i = 0; i < profile.samples.length; i += 1) {
    const us = profile.timeDeltas[i] ?? 0;
    total += us;
    const seen = new Set();
    for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
      const l = label(byId.get(id));
      if (re.test(l) && !seen.has(l)) {
        seen.add(l);
        incl.set(l, (incl.get(l) ?? 0) + us);
      }
    }
  }
  return [...incl].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`).join('\n');
}
if (process.argv[1]?.endsWith('profile-summary.mjs') && process.argv[4]) console.log(`-- inclusive /${process.argv[4]}/ --\n${inclusive(process.argv[2], process.argv[4])}`);
