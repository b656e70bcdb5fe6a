// The growth chart: a grade's measured counts against the reference curve of each class the
// case allows and the class that fitted, each scaled to the first measured count (as the CLI's
// text chart does). Chart.js (Debian's libjs-chart.js) is loaded on first use only.

const CURVES = {
  "1": () => 1,
  "log n": (n) => Math.log2(Math.max(n, 2)),
  "n": (n) => n,
  "n log n": (n) => n * Math.log2(Math.max(n, 2)),
  "n^2": (n) => n * n,
  "n^3": (n) => n * n * n,
  "2^n": (n) => Math.pow(2, n),
  "n + m": (n, m) => n + (m || 0),
};
const ORDER = ["1", "log n", "n", "n log n", "n^2", "n^3", "2^n"];
const COLORS = ["#2f9e44", "#e8590c", "#7048e8", "#1098ad", "#c2255c"];

let loading = null;
function loadChart() {
  if (window.Chart) return Promise.resolve(window.Chart);
  if (!loading) {
    loading = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = "/vendor/chart.js/chart.min.js";
      script.onload = () => resolve(window.Chart);
      script.onerror = () => reject(new Error("Chart.js could not be loaded (apt-get install libjs-chart.js)."));
      document.head.appendChild(script);
    });
  }
  return loading;
}

// Reference counts for `className` over the points, equal to the measured count at the first point.
export function referenceCurve(className, points) {
  const curve = CURVES[className];
  if (!curve || !points.length) return null;
  const first = points.find((point) => point.count !== null && point.count !== undefined);
  if (!first) return null;
  const scale = first.count / (curve(first.n, first.m) || 1);
  return points.map((point) => ({ x: point.n, y: Math.max(scale * curve(point.n, point.m), 1e-3) }));
}

let chart = null;

export async function drawGrowth(canvas, growthCase) {
  const Chart = await loadChart();
  const points = (growthCase.points || []).filter((point) => typeof point.count === "number");
  const datasets = [{
    label: "measured",
    data: points.map((point) => ({ x: point.n, y: Math.max(point.count, 1e-3) })),
    borderColor: "#1b1f24", backgroundColor: "#1b1f24", pointRadius: 4, showLine: true, borderWidth: 2,
  }];
  const expect = growthCase.expect || [];
  const named = [...new Set([...expect, ...(growthCase.class ? [growthCase.class] : [])])];
  // The classes either side of the asked ones, faint, so the eye can place the measured line.
  const neighbours = new Set();
  for (const name of expect) {
    const at = ORDER.indexOf(name);
    if (at < 0) continue;
    for (const other of [ORDER[at - 1], ORDER[at + 1]]) if (other && !named.includes(other)) neighbours.add(other);
  }
  named.forEach((name, index) => {
    const data = referenceCurve(name, points);
    if (!data) return;
    const asked = expect.includes(name);
    datasets.push({
      label: `O(${name})${asked ? " (asked)" : " (fitted)"}`, data, borderColor: COLORS[index % COLORS.length],
      backgroundColor: COLORS[index % COLORS.length], borderDash: asked ? [6, 4] : [], pointRadius: 0, showLine: true, borderWidth: 1.5,
    });
  });
  for (const name of neighbours) {
    const data = referenceCurve(name, points);
    if (!data) continue;
    datasets.push({ label: `O(${name})`, data, borderColor: "#b8bec6", backgroundColor: "#b8bec6", pointRadius: 0, showLine: true, borderWidth: 1 });
  }
  const counts = points.length ? points.map((point) => Math.max(point.count, 1)) : [1];
  const sizes = points.length ? points.map((point) => point.n) : [1, 2];
  if (chart) chart.destroy();
  chart = new Chart(canvas, {
    type: "scatter",
    data: { datasets },
    options: {
      animation: false, maintainAspectRatio: false, responsive: true,
      scales: {
        x: { type: "logarithmic", min: Math.min(...sizes), max: Math.max(...sizes), title: { display: true, text: "n" } },
        // Bounded to the measured counts, so a curve such as 2^n does not flatten the rest.
        y: { type: "logarithmic", min: Math.min(...counts) / 4, max: Math.max(...counts) * 4, title: { display: true, text: "count" } },
      },
      plugins: { legend: { position: "bottom" } },
    },
  });
  return chart;
}
