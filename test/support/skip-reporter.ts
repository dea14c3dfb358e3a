// Ends the run with what was skipped and why, so a missing dependency shows instead of a quietly smaller suite.
// The reason comes from needs() (meta.skipReason) or ctx.skip(note); each line names where it was declared: the
// outermost suite that carries the reason, or the test itself.
import type { Reporter, TestCase, TestModule, TestSuite } from 'vitest/node';

function declaredAt(test: TestCase, reason: string): TestCase | TestSuite {
  let at: TestCase | TestSuite = test;
  for (let p = test.parent; p.type === 'suite'; p = p.parent) {
    if (p.meta().skipReason === reason) at = p;
  }
  return at;
}

export default class SkipReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const byReason = new Map<string, Map<string, number>>();
    let total = 0;
    for (const mod of modules) {
      for (const test of mod.children.allTests()) {
        const result = test.result();
        if (result.state !== 'skipped') continue;
        total += 1;
        const given = test.meta().skipReason ?? result.note;
        // it.skip, .only elsewhere or a -t filter: no reason to show, so only the file is named.
        const reason = given ?? 'skipped without a reason (it.skip, .only or a name filter)';
        const where = given ? `${mod.relativeModuleId} > ${declaredAt(test, given).fullName}` : mod.relativeModuleId;
        const places = byReason.get(reason) ?? new Map<string, number>();
        places.set(where, (places.get(where) ?? 0) + 1);
        byReason.set(reason, places);
      }
    }
    if (!total) return;
    const lines = [`\n Skipped ${total} test${total === 1 ? '' : 's'}:`];
    for (const [reason, places] of byReason) {
      lines.push(`   ${reason}:`);
      for (const [where, n] of places) lines.push(`     ${where}${n > 1 ? ` (${n} tests)` : ''}`);
    }
    process.stdout.write(`${lines.join('\n')}\n\n`);
  }
}
