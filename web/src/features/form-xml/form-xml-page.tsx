/** Form XML Management (spec 03 §2: "only a heading 'Form XML List', no behaviour"). */
export function FormXmlPage() {
  return (
    <section className="panel" aria-labelledby="form-xml-list">
      <h2 id="form-xml-list">Form XML List</h2>
    </section>
  );
}
