import { missingFeatures, showUnsupportedBrowser } from "./app/browser-support";
import "./styles/global.css";

// spec 01 §2.1: a browser without what the portal needs gets the unsupported-browser dialog
// instead of a blank page; the app (and its WebAssembly) loads only where it can run.
const root = document.getElementById("root")!;
const missing = missingFeatures();
if (missing.length > 0) {
  showUnsupportedBrowser(root, missing);
} else {
  void import("./app/start").then((app) => app.start(root));
}
