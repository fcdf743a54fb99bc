// Local ESLint rule: a feature never imports another feature, and shared code (components/,
// lib/) never imports a feature (STYLE.md "React app"). Shared pieces move to components/ or lib/.
// Resolves each relative import against the importing file, so `../survey/api/http` from
// features/history-portal is caught although the text does not say "features".
import path from "node:path";

const SRC = path.resolve(import.meta.dirname, "../src");

/** The area of a file under src/: "features/<name>", "components", "lib", "app" ... */
function areaOf(file) {
  const rel = path.relative(SRC, file);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return undefined;
  const [top, second] = rel.split(path.sep);
  return top === "features" && second ? `features/${second}` : top;
}

export const featureBoundaries = {
  meta: {
    type: "problem",
    docs: { description: "no imports across src/features/*; shared code does not import features" },
    schema: [],
    messages: {
      crossFeature: "{{from}} imports {{to}}: a feature never imports another feature; move the shared piece to components/ or lib/.",
      sharedImportsFeature: "{{from}} imports {{to}}: shared code (components/, lib/) never imports a feature.",
    },
  },
  create(context) {
    const file = context.filename;
    const from = areaOf(file);
    if (!from) return {};
    function check(node, source) {
      if (typeof source !== "string" || !source.startsWith(".")) return;
      const to = areaOf(path.resolve(path.dirname(file), source));
      if (!to || !to.startsWith("features/") || to === from) return;
      if (from.startsWith("features/")) context.report({ node, messageId: "crossFeature", data: { from, to } });
      else if (from === "components" || from === "lib") context.report({ node, messageId: "sharedImportsFeature", data: { from, to } });
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
    };
  },
};
