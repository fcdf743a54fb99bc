// The PDF viewer page (spec 01 §2.3: /Scripts/pdfjs/web/viewer.html?file=...), built on pdfjs-dist
// and served by the web build: every page drawn on a canvas with pdf.js's text layer over it
// (selectable, searchable text). Only same-origin files are opened: the page must not become a
// viewer for any address someone puts in a link.
import { getDocument, GlobalWorkerOptions, TextLayer } from "pdfjs-dist";
import workerUrl from "pdfjs-dist/build/pdf.worker.min.mjs?url";
import "./viewer.css";

GlobalWorkerOptions.workerSrc = workerUrl;

const status = document.getElementById("pdfv-status")!;
const box = document.getElementById("pdfv-pages-box")!;
const pagesLabel = document.getElementById("pdfv-pages")!;
const download = document.getElementById("pdfv-download") as HTMLAnchorElement;

/** The file to show when it is on this site; otherwise undefined. */
function sameOriginFile(): string | undefined {
  const file = new URLSearchParams(window.location.search).get("file");
  if (!file) return undefined;
  try {
    const url = new URL(file, window.location.origin);
    return url.origin === window.location.origin && (url.protocol === "http:" || url.protocol === "https:") ? url.href : undefined;
  } catch {
    return undefined;
  }
}

async function show(file: string) {
  download.href = file;
  const pdf = await getDocument({ url: file, withCredentials: true, isEvalSupported: false }).promise;
  const title = (await pdf.getMetadata().catch(() => null))?.info as { Title?: string } | undefined;
  if (title?.Title) {
    document.getElementById("pdfv-title")!.textContent = title.Title;
    document.title = title.Title;
  }
  pagesLabel.textContent = `${pdf.numPages} ${pdf.numPages === 1 ? "page" : "pages"}`;
  const width = Math.min(box.clientWidth || window.innerWidth, 900);
  for (let n = 1; n <= pdf.numPages; n += 1) {
    const page = await pdf.getPage(n);
    const scale = width / page.getViewport({ scale: 1 }).width;
    const viewport = page.getViewport({ scale });
    const ratio = window.devicePixelRatio || 1;
    const wrap = document.createElement("section");
    wrap.className = "pdfv-page";
    wrap.setAttribute("aria-label", `Page ${n}`);
    wrap.style.width = `${viewport.width}px`;
    wrap.style.height = `${viewport.height}px`;
    wrap.style.setProperty("--scale-factor", String(scale));
    const canvas = document.createElement("canvas");
    canvas.width = Math.floor(viewport.width * ratio);
    canvas.height = Math.floor(viewport.height * ratio);
    canvas.style.width = `${viewport.width}px`;
    canvas.style.height = `${viewport.height}px`;
    const text = document.createElement("div");
    text.className = "textLayer";
    wrap.append(canvas, text);
    box.append(wrap);
    await page.render({ canvas, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] }).promise;
    await new TextLayer({ textContentSource: page.streamTextContent(), container: text, viewport }).render();
  }
  status.textContent = "";
  status.hidden = true;
}

const file = sameOriginFile();
if (!file) {
  status.textContent = "No document to show.";
} else {
  show(file).catch((e: unknown) => {
    const name = (e as { name?: string }).name;
    status.textContent =
      name === "ResponseException" || name === "MissingPDFException"
        ? "The document could not be found."
        : "The document could not be shown.";
  });
}
