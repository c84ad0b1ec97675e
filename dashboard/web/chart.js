// Stacked bar charts with uPlot (loaded before the modules as `vendor/uPlot.iife.min.js`, the
// global `uPlot`). uPlot does not stack by itself: each series is drawn as the running total of
// its own product and those before it, the tallest first, so every bar shows each product's
// share of the day. The exact numbers are in the table beside the chart.

import { h } from "./dom.js";
import { number } from "./format.js";

/** Series colours, in product order; the legend's swatches use the same (`.swatch-N`). */
const COLOURS = ["#1f5fbf", "#c2410c", "#15803d", "#7e22ce"];

const DAY_SECONDS = 86_400;

/**
 * A figure charting `products` (`[{ label, values }]`, one value per day) over `days`
 * (`YYYY-MM-DD`); `summary` is its text alternative. Call `draw()` once the figure is in the
 * page and `destroy()` when it leaves.
 */
export function stackedBars(title, days, products, summary) {
  const canvasHolder = h("div", { class: "chart", role: "img", "aria-label": `${title}. ${summary}` });
  const legend = h(
    "ul",
    { class: "legend", "aria-label": "Legend" },
    products.map((product, index) => h("li", {}, h("span", { class: `swatch swatch-${index}`, "aria-hidden": "true" }), product.label)),
  );
  const figure = h("figure", { class: "chart-figure" }, h("figcaption", {}, title), canvasHolder, legend);

  const xs = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
  const running = [];
  let sums = days.map(() => 0);
  for (const product of products) {
    sums = sums.map((sum, index) => sum + (product.values[index] || 0));
    running.push(sums);
  }
  // The tallest (every product) first, so the shorter running totals are drawn over it.
  const order = products.map((_, index) => index).reverse();
  const bars = uPlot.paths.bars({ size: [0.7, 48], align: 0 });
  const options = {
    width: 600,
    height: 280,
    legend: { show: false },
    cursor: { show: false },
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), "Etc/UTC"),
    scales: { x: { time: true, range: (_, min, max) => [min - DAY_SECONDS / 2, max + DAY_SECONDS / 2] } },
    axes: [{ space: 60 }, { values: (_, ticks) => ticks.map((tick) => number(tick)), size: 70 }],
    series: [
      {},
      ...order.map((index) => ({
        label: products[index].label,
        stroke: COLOURS[index % COLOURS.length],
        fill: COLOURS[index % COLOURS.length],
        width: 0,
        points: { show: false },
        paths: bars,
      })),
    ],
  };
  const data = [xs, ...order.map((index) => running[index])];
  let plot = null;
  const fit = () => {
    const width = Math.max(260, canvasHolder.clientWidth);
    if (plot) plot.setSize({ width, height: options.height });
  };
  const observer = new ResizeObserver(fit);
  // Drawn once the figure is in the page, at the width it has there.
  figure.draw = () => {
    plot = new uPlot({ ...options, width: Math.max(260, canvasHolder.clientWidth) }, data, canvasHolder);
    observer.observe(canvasHolder);
  };
  figure.destroy = () => {
    observer.disconnect();
    if (plot) plot.destroy();
  };
  return figure;
}
