/** The per-day bar chart (spec 03 §2 "a bar chart titled Total Visits"): plain SVG, scaled to
 * its box. The per-day table beside it is the accessible form of the same figures, so the
 * drawing itself is hidden from assistive technology. */
export function UsageChart({ title, labels, data }: { title: string; labels: string[]; data: number[] }) {
  const max = Math.max(1, ...data);
  const width = 700;
  const height = 240;
  const left = 36;
  const bottom = 28;
  const top = 12;
  const plotH = height - bottom - top;
  const step = (width - left) / Math.max(1, data.length);
  const bar = Math.max(2, step * 0.6);
  const ticks = [0, Math.round(max / 2), max];
  // Label every day on short ranges, fewer on long ones.
  const every = Math.ceil(data.length / 12);
  return (
    <figure className="usage-chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
        {ticks.map((t) => {
          const y = top + plotH - (t / max) * plotH;
          return (
            <g key={t}>
              <line x1={left} x2={width} y1={y} y2={y} className="usage-grid" />
              <text x={left - 6} y={y + 4} textAnchor="end" className="usage-axis">{t}</text>
            </g>
          );
        })}
        {data.map((v, i) => {
          const h = (v / max) * plotH;
          const x = left + i * step + (step - bar) / 2;
          return (
            <g key={labels[i] ?? i}>
              <rect x={x} y={top + plotH - h} width={bar} height={h} className="usage-bar" />
              {i % every === 0 && (
                <text x={x + bar / 2} y={height - 8} textAnchor="middle" className="usage-axis">{labels[i]}</text>
              )}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
