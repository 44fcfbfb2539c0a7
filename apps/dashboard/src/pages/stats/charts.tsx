import type { ReactNode } from "react";

/** Small SVG charts drawn by hand: no chart library, no inline styles, readable at any width. */

const W = 640;
const H = 200;
const PAD = { top: 12, right: 12, bottom: 26, left: 44 };

export interface Series {
  name: string;
  color: string;
  values: Array<number | null>;
}

function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const scaled = value / power;
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power;
}

function Axes(props: { max: number; labels: string[]; unit: string }) {
  const innerH = H - PAD.top - PAD.bottom;
  const ticks = [0, 0.5, 1];
  const every = Math.max(1, Math.ceil(props.labels.length / 6));
  const step = (W - PAD.left - PAD.right) / Math.max(1, props.labels.length);
  return (
    <g>
      {ticks.map((t) => {
        const y = PAD.top + innerH * (1 - t);
        return (
          <g key={t}>
            <line className="axis" x1={PAD.left} x2={W - PAD.right} y1={y} y2={y} />
            <text x={PAD.left - 6} y={y + 4} textAnchor="end">
              {Number((props.max * t).toFixed(props.max < 10 ? 1 : 0))}
              {props.unit}
            </text>
          </g>
        );
      })}
      {props.labels.map((label, i) =>
        i % every === 0 ? (
          <text
            key={label + String(i)}
            x={PAD.left + step * (i + 0.5)}
            y={H - 8}
            textAnchor="middle"
          >
            {label}
          </text>
        ) : null,
      )}
    </g>
  );
}

function Legend({ series }: { series: Series[] }) {
  return (
    <div className="legend">
      {series.map((s) => (
        <span key={s.name}>
          <svg width="10" height="10" aria-hidden="true">
            <rect width="10" height="10" rx="2" fill={s.color} />
          </svg>
          {s.name}
        </span>
      ))}
    </div>
  );
}

/** Title, legend and the SVG canvas every chart shares; `summary` is read by screen readers. */
function ChartFrame(props: {
  title: string;
  series: Series[];
  summary: string;
  children: ReactNode;
}) {
  return (
    <figure className="chart" style={{ margin: 0 }}>
      <figcaption className="spread">
        <strong>{props.title}</strong>
        <Legend series={props.series} />
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={props.summary}>
        {props.children}
      </svg>
    </figure>
  );
}

/** Stacked bars per bucket (e.g. delivered over failed). */
export function StackedBars(props: { title: string; labels: string[]; series: Series[] }) {
  const totals = props.labels.map((_, i) =>
    props.series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0),
  );
  const max = niceMax(Math.max(0, ...totals));
  const innerH = H - PAD.top - PAD.bottom;
  const step = (W - PAD.left - PAD.right) / Math.max(1, props.labels.length);
  const summary = props.series
    .map((s) => `${s.name} ${s.values.reduce<number>((a, v) => a + (v ?? 0), 0)}`)
    .join(", ");
  return (
    <ChartFrame title={props.title} series={props.series} summary={`${props.title}: ${summary}`}>
      <Axes max={max} labels={props.labels} unit="" />
      {props.labels.map((label, i) => {
        let base = PAD.top + innerH;
        return (
          <g key={label + String(i)}>
            {props.series.map((s) => {
              const h = ((s.values[i] ?? 0) / max) * innerH;
              base -= h;
              return h > 0 ? (
                <rect
                  key={s.name}
                  x={PAD.left + step * i + step * 0.15}
                  y={base}
                  width={step * 0.7}
                  height={h}
                  fill={s.color}
                  rx={2}
                >
                  <title>{`${label}: ${s.name} ${s.values[i]}`}</title>
                </rect>
              ) : null;
            })}
          </g>
        );
      })}
    </ChartFrame>
  );
}

/** Lines per series; null values leave a gap. */
export function Lines(props: { title: string; labels: string[]; series: Series[]; unit: string }) {
  const all = props.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const max = niceMax(Math.max(0, ...all));
  const innerH = H - PAD.top - PAD.bottom;
  const step = (W - PAD.left - PAD.right) / Math.max(1, props.labels.length);
  const x = (i: number) => PAD.left + step * (i + 0.5);
  const y = (v: number) => PAD.top + innerH * (1 - v / max);
  const path = (values: Array<number | null>) => {
    let d = "";
    let pen = false;
    values.forEach((v, i) => {
      if (v === null) {
        pen = false;
        return;
      }
      d += `${pen ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)} `;
      pen = true;
    });
    return d;
  };
  const last = props.series
    .map((s) => `${s.name} ${[...s.values].reverse().find((v) => v !== null) ?? "none"}`)
    .join(", ");
  return (
    <ChartFrame
      title={props.title}
      series={props.series}
      summary={`${props.title}, latest: ${last}`}
    >
      <Axes max={max} labels={props.labels} unit={props.unit} />
      {props.series.map((s) => (
        <g key={s.name}>
          <path
            d={path(s.values)}
            fill="none"
            stroke={s.color}
            strokeWidth={2}
            strokeLinejoin="round"
          />
          {s.values.map((v, i) =>
            v === null ? null : (
              <circle
                key={`${s.name}-${props.labels[i]}-${String(i)}`}
                cx={x(i)}
                cy={y(v)}
                r={2.5}
                fill={s.color}
              >
                <title>{`${props.labels[i]}: ${s.name} ${v}${props.unit}`}</title>
              </circle>
            ),
          )}
        </g>
      ))}
    </ChartFrame>
  );
}
