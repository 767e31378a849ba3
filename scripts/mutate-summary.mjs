// The last lines of `make mutate`: one table of kill rates, the Go packages'
// (the summary internal/tools/mutate printed, passed as a file) and the
// frontend's (StrykerJS's JSON report, per file and for src/lib as a whole),
// so the figures are not scattered over pages of progress output.
//
//   node scripts/mutate-summary.mjs GO_OUTPUT STRYKER_JSON
import { existsSync, readFileSync } from 'node:fs';

const [goOut, strykerJSON] = process.argv.slice(2);

if (goOut && existsSync(goOut)) {
  const lines = readFileSync(goOut, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.startsWith('mutation kill rate'));
  if (at >= 0) console.log(lines.slice(at).join('\n').trimEnd());
  else console.log(`(no Go summary in ${goOut}: internal/tools/mutate did not finish)`);
}

if (!strykerJSON || !existsSync(strykerJSON)) {
  console.log(`\n(no StrykerJS report at ${strykerJSON})`);
  process.exit(0);
}
const report = JSON.parse(readFileSync(strykerJSON, 'utf8'));
// Stryker's mutation score: a mutant no test reaches counts as survived;
// one that does not compile or is ignored is not counted.
const tally = (mutants) => {
  const n = (s) => mutants.filter((m) => m.status === s).length;
  const killed = n('Killed') + n('Timeout');
  const tested = killed + n('Survived') + n('NoCoverage');
  return { killed, tested, survived: n('Survived'), nocov: n('NoCoverage') };
};
const row = (name, t) =>
  `${name.padEnd(34)} ${String(t.tested).padStart(7)} ${String(t.killed).padStart(7)} ${String(t.survived).padStart(8)} ${String(t.nocov).padStart(7)} ${(t.tested ? ((100 * t.killed) / t.tested).toFixed(0) + '%' : '-').padStart(5)}`;
const files = Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b));
console.log('\nStrykerJS kill rate (every mutant of the files mutated)');
console.log(`${'file'.padEnd(34)} ${'tested'.padStart(7)} ${'killed'.padStart(7)} ${'survived'.padStart(8)} ${'no test'.padStart(7)} ${'rate'.padStart(5)}`);
for (const [path, f] of files) console.log(row(path.replace(/^.*?(src\/)/, '$1'), tally(f.mutants)));
const all = files.flatMap(([, f]) => f.mutants);
console.log(row('all files mutated', tally(all)));
const reducer = files.filter(([p]) => p.endsWith('chatReducer.ts'));
if (reducer.length && files.length > 1) {
  console.log(row('all but chatReducer.ts', tally(files.filter(([p]) => !p.endsWith('chatReducer.ts')).flatMap(([, f]) => f.mutants))));
}
