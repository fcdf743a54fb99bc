import { Link, useParams } from "react-router";
import { pdfUrl } from "./api/documents";
import "./documents.css";

/** The mobile letter viewer (spec 01 §2.3: /Documents/ViewPdf/{AccessToken} below 420 px). */
export function PdfViewPage() {
  const { token = "" } = useParams();
  return (
    <section className="panel doc-mobile">
      <Link to="/documents/all">Back to documents</Link>
      <iframe className="doc-frame-mobile" title="Letter PDF" src={pdfUrl(token)} />
      <a href={pdfUrl(token)} target="_blank" rel="noreferrer">
        Open the PDF
      </a>
    </section>
  );
}
