import { useEffect, useRef, useState } from "react";
import { AxisBottom, AxisLeft } from "@visx/axis";
import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar } from "@visx/shape";

const WIDTH = 700;
const HEIGHT = 240;

/** The drawing's width in CSS pixels, followed as its box resizes: the chart is drawn at its real
 * size, so the axis texts keep their shape on a phone instead of being squeezed by a stretched
 * viewBox. */
function useWidth(fallback: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const box = ref.current;
    if (!box || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => {
      const w = Math.round(entry.contentRect.width);
      if (w > 0) setWidth(w);
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}
const MARGIN = { top: 12, right: 8, bottom: 28, left: 40 };

/** The per-day bar chart (spec 03 §2 "a bar chart titled Total Visits"), drawn with visx
 * (TOOLCHAIN: @visx/shape, scale, axis, group) and scaled to its box. The per-day table beside it
 * is the accessible form of the same figures, so the drawing itself is hidden from assistive
 * technology. */
export function UsageChart({ title, labels, data }: { title: string; labels: string[]; data: number[] }) {
  const { ref, width } = useWidth(WIDTH);
  const innerWidth = Math.max(1, width - MARGIN.left - MARGIN.right);
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const keys = data.map((_, i) => String(i));
  const x = scaleBand<string>({ domain: keys, range: [0, innerWidth], padding: 0.4 });
  const y = scaleLinear<number>({ domain: [0, Math.max(1, ...data)], range: [innerHeight, 0], nice: true });
  // Label every day on short ranges, fewer on long ones (and on narrow screens).
  const every = Math.ceil(data.length / Math.max(2, Math.floor(innerWidth / 56)));
  const shownKeys = keys.filter((_, i) => i % every === 0);
  const ticks = y.ticks(4).filter((t) => Number.isInteger(t));
  return (
    <figure className="usage-chart">
      <figcaption>{title}</figcaption>
      <div ref={ref} className="usage-chart-box">
        <svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} aria-hidden="true" focusable="false">
          <Group left={MARGIN.left} top={MARGIN.top}>
            {ticks.map((t) => (
              <line key={t} x1={0} x2={innerWidth} y1={y(t)} y2={y(t)} className="usage-grid" />
            ))}
            {data.map((v, i) => {
              const key = keys[i];
              const top = y(v);
              return (
                <Bar
                  key={labels[i] ?? key}
                  x={x(key) ?? 0}
                  y={top}
                  width={Math.max(2, x.bandwidth())}
                  height={innerHeight - top}
                  className="usage-bar"
                />
              );
            })}
            <AxisLeft
              scale={y}
              tickValues={ticks}
              tickFormat={(t) => String(t)}
              hideAxisLine
              hideTicks
              tickClassName="usage-axis"
              tickLabelProps={{ className: "usage-axis", textAnchor: "end", dx: -4, dy: 4 }}
            />
            <AxisBottom
              top={innerHeight}
              scale={x}
              tickValues={shownKeys}
              tickFormat={(k) => labels[Number(k)] ?? ""}
              hideTicks
              axisClassName="usage-axis-line"
              tickLabelProps={{ className: "usage-axis", textAnchor: "middle" }}
            />
          </Group>
        </svg>
      </div>
    </figure>
  );
}
