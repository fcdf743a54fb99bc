// Prints each failed or flaky test of a Playwright JSON report with every try's error (its first
// lines), so CI's log shows why the first try failed even when the line reporter's output was cut.
//   node scripts/lib/playwright-failures.js playwright.json
const fs = require("fs");

const LINES = 25;
const report = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const strip = (text) => text.replace(/\u001b\[[0-9;]*m/g, "");

function* specs(suite) {
  for (const spec of suite.specs ?? []) yield spec;
  for (const child of suite.suites ?? []) yield* specs(child);
}

for (const suite of report.suites ?? []) {
  for (const spec of specs(suite)) {
    for (const test of spec.tests ?? []) {
      if (test.status !== "unexpected" && test.status !== "flaky") continue;
      console.log(`\n== ${test.status === "flaky" ? "flaky" : "failed"}: [${test.projectName}] ${spec.file}:${spec.line} ${spec.title}`);
      (test.results ?? []).forEach((result, i) => {
        console.log(`-- try ${i + 1}: ${result.status} after ${(result.duration / 1000).toFixed(1)} s`);
        for (const error of result.errors ?? []) {
          const text = strip(error.message ?? error.stack ?? "").split("\n").slice(0, LINES).join("\n");
          console.log(text.replace(/^/gm, "   "));
        }
      });
    }
  }
}
