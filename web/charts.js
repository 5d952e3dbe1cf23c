// The dashboard's charts, drawn by Apache ECharts (served by the gateway at /vendor/echarts.min.js):
// series by day, week or month on a time axis that reads well from one day to ten years, gaps left
// as gaps, lone buckets as dots, tooltips, zoom on long series, and top-N breakdowns as bars (docs/web-ui.md#dashboard).
// Top-level, so the other pages' scripts see its type when checked (web/tsconfig.json).
const platChartsLib = (function () {
  const DAY = 86_400_000;
  const BLUE = '#2f6fde';
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  /** Series longer than this many days get a zoom slider (and wheel / pinch zoom). */
  const ZOOM_AFTER_DAYS = 90;

  /** @typedef {'day' | 'week' | 'month'} Grain */
  /** @typedef {{ stat_date: string, value: number }} SeriesRow a day's (or a bucket's) value */
  /** @typedef {{ dimension: string | null, value: number, other?: boolean }} BreakdownRow */
  /** @typedef {{ value: [number, number | null] }} SeriesPoint what ECharts hands a tooltip: `[time, value]` */

  /** @param {string} d an ISO date (`2024-03-05`) */
  const dayOf = (d) => Date.parse(`${d}T00:00:00Z`);

  /**
   * Numbers as the metric's unit reads: money with two decimals, the rest up to two.
   * @param {number | null | undefined} n
   * @param {string} unit
   */
  function formatValue(n, unit) {
    if (n === null || n === undefined || Number.isNaN(n)) return '';
    return unit === 'currency'
      ? n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
      : n.toLocaleString('en-US', { maximumFractionDigits: 2 });
  }

  /**
   * Short axis numbers: 1.2k, 3.4M.
   * @param {number} n
   */
  const compact = (n) =>
    Math.abs(n) >= 1e6
      ? `${+(n / 1e6).toFixed(1)}M`
      : Math.abs(n) >= 1e3
        ? `${+(n / 1e3).toFixed(1)}k`
        : String(+n.toFixed(2));

  /**
   * Time-axis labels for a range of `days`: days for two months or less, months up to three years,
   * years beyond. A label names its year where the year changes (January, or Jan 1); the card's
   * caption names the whole range with its years (`rangeText`), so a range within one year still
   * says which.
   * @param {number} fromDay
   * @param {number} toDay
   */
  function timeAxis(fromDay, toDay) {
    const days = Math.round((toDay - fromDay) / DAY) + 1;
    const level = days <= 62 ? 'day' : days <= 3 * 366 ? 'month' : 'year';
    return {
      type: 'time',
      // Half a day each side: a single day sits in the middle instead of on the axis.
      min: fromDay - DAY / 2,
      max: toDay + DAY / 2,
      minInterval: level === 'day' ? DAY : level === 'month' ? 28 * DAY : 365 * DAY,
      axisLabel: {
        hideOverlap: true,
        color: '#5b6475',
        /** @param {number} value */
        formatter: (value) => {
          const d = new Date(value);
          const y = d.getUTCFullYear();
          const m = MONTHS[d.getUTCMonth()];
          const newYear = d.getUTCMonth() === 0;
          if (level === 'year') return String(y);
          if (level === 'month') return newYear ? `${m} ${y}` : m;
          return newYear && d.getUTCDate() === 1 ? `${m} 1, ${y}` : `${m} ${d.getUTCDate()}`;
        },
      },
      splitLine: { show: false },
    };
  }

  /**
   * "Jul 6, 2005" or "May 24, 2005 – Feb 14, 2006": the range a chart covers, with its years.
   * @param {string} from
   * @param {string} to
   */
  function rangeText(from, to) {
    /** @param {string} iso */
    const text = (iso) => {
      const d = new Date(dayOf(iso));
      return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
    };
    return from === to ? text(from) : `${text(from)} – ${text(to)}`;
  }

  /**
   * The first day of the bucket holding day `t`: itself, its week's Monday, or its month's first.
   * @param {number} t
   * @param {Grain} grain
   */
  function bucketStart(t, grain) {
    const d = new Date(t);
    if (grain === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    if (grain === 'week') return t - ((d.getUTCDay() + 6) % 7) * DAY;
    return t;
  }

  /**
   * The first day of the bucket after the one starting at `t`.
   * @param {number} t
   * @param {Grain} grain
   */
  function nextBucket(t, grain) {
    const d = new Date(t);
    if (grain === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    return t + (grain === 'week' ? 7 : 1) * DAY;
  }

  /**
   * A daily series grouped by `grain` (docs/web-ui.md#grain): each week (from Monday) or month one
   * row dated by its first day, its values summed when they add up across days, else averaged.
   * @param {SeriesRow[]} rows
   * @param {Grain | undefined} grain
   * @param {boolean} additive
   * @returns {SeriesRow[]}
   */
  function bucketRows(rows, grain, additive) {
    if (!grain || grain === 'day') return rows;
    /** @type {Map<number, { sum: number, n: number }>} */
    const groups = new Map();
    for (const r of rows) {
      const k = bucketStart(dayOf(r.stat_date), grain);
      const g = groups.get(k) || { sum: 0, n: 0 };
      g.sum += r.value;
      g.n += 1;
      groups.set(k, g);
    }
    return [...groups]
      .sort((a, b) => a[0] - b[0])
      .map(([k, g]) => ({
        stat_date: new Date(k).toISOString().slice(0, 10),
        value: additive ? g.sum : g.sum / g.n,
      }));
  }

  const BUCKET_DAYS = { day: 1, week: 7, month: 365.25 / 12 };
  /**
   * The grain for a range of `days` at `perDay` events a day: the rule of shared/chart-grain.ts
   * (five events a bucket, two buckets in the range), so a narrowed range gets a finer grain.
   * @param {number} perDay
   * @param {number} days
   */
  function grainFor(perDay, days) {
    const allowed = /** @type {Grain[]} */ (['day', 'week', 'month']).filter(
      (g) => g === 'day' || days >= 2 * BUCKET_DAYS[g],
    );
    const grain = allowed.find((g) => perDay * BUCKET_DAYS[g] >= 5) || allowed[allowed.length - 1];
    const per = Math.round(perDay * BUCKET_DAYS[grain] * 10) / 10;
    return {
      grain,
      reason: `${{ day: 'daily', week: 'weekly', month: 'monthly' }[grain]}: about ${per} events a ${grain}`,
    };
  }

  /**
   * A bucket as a reader names it: `2024-03-05`, `week of 2024-03-04`, `Mar 2024`.
   * @param {number} t
   * @param {Grain} grain
   */
  function bucketText(t, grain) {
    const iso = new Date(t).toISOString().slice(0, 10);
    if (grain === 'month') return `${MONTHS[new Date(t).getUTCMonth()]} ${new Date(t).getUTCFullYear()}`;
    return grain === 'week' ? `week of ${iso}` : iso;
  }

  /**
   * The points of a series with a null between buckets that are not consecutive, so a line breaks
   * at every gap instead of joining across it; and the buckets with no neighbour on either side,
   * which a line cannot show, to be drawn as dots.
   * @param {SeriesRow[]} rows
   * @param {Grain} grain
   */
  function withGaps(rows, grain) {
    /** @type {[number, number | null][]} */
    const points = [];
    /** @type {[number, number][]} */
    const lone = [];
    rows.forEach((r, i) => {
      const t = dayOf(r.stat_date);
      const prev = i > 0 ? dayOf(rows[i - 1].stat_date) : null;
      const next = i + 1 < rows.length ? dayOf(rows[i + 1].stat_date) : null;
      const gapBefore = prev !== null && nextBucket(prev, grain) < t;
      if (gapBefore) points.push([nextBucket(prev, grain), null]);
      points.push([t, r.value]);
      if ((prev === null || gapBefore) && (next === null || nextBucket(t, grain) < next))
        lone.push([t, r.value]);
    });
    return { points, lone };
  }

  /**
   * ECharts option of a series drawn as `kind` (line, area or bar) over [from, to]; `rows` are
   * already grouped by `grain` (day when absent).
   * @param {string} kind `line`, `area` or `bar`
   * @param {SeriesRow[]} rows
   * @param {string} unit
   * @param {string} from
   * @param {string} to
   * @param {Grain} [grain]
   */
  function seriesOption(kind, rows, unit, from, to, grain = 'day') {
    const fromDay = bucketStart(dayOf(from), grain);
    const toDay = Math.max(dayOf(to), fromDay);
    const days = Math.round((toDay - fromDay) / DAY) + 1;
    const { points, lone } = withGaps(rows, grain);
    /** @param {number | null} v */
    const tooltipValue = (v) => formatValue(v, unit);
    const series =
      kind === 'bar'
        ? [
            {
              type: 'bar',
              name: 'value',
              data: rows.map((r) => [dayOf(r.stat_date), r.value]),
              itemStyle: { color: BLUE },
              barMaxWidth: grain === 'day' ? 24 : 40,
            },
          ]
        : [
            {
              type: 'line',
              name: 'value',
              data: points,
              connectNulls: false,
              showSymbol: false,
              lineStyle: { color: BLUE, width: 1.5 },
              itemStyle: { color: BLUE },
              areaStyle: kind === 'area' ? { color: 'rgba(47,111,222,0.18)' } : undefined,
            },
            // Days alone between gaps: a line of one point draws nothing, a dot does.
            {
              type: 'scatter',
              name: 'value',
              data: lone,
              symbolSize: 5,
              itemStyle: { color: BLUE },
              tooltip: { show: true },
            },
          ];
    const zoom = days > ZOOM_AFTER_DAYS;
    return {
      animation: false,
      grid: { left: 8, right: 16, top: 12, bottom: zoom ? 56 : 8, containLabel: true },
      tooltip: {
        trigger: kind === 'bar' ? 'axis' : 'item',
        valueFormatter: tooltipValue,
        /** @param {SeriesPoint | SeriesPoint[]} p the point, or the points on the axis (bars) */
        formatter: (p) => {
          const item = Array.isArray(p) ? p[0] : p;
          const [t, v] = item.value;
          return `${bucketText(t, grain)}<br/><strong>${tooltipValue(v)}</strong>`;
        },
      },
      xAxis: timeAxis(fromDay, toDay),
      yAxis: {
        type: 'value',
        axisLabel: { formatter: compact, color: '#5b6475' },
        splitLine: { lineStyle: { color: '#eef0f4' } },
      },
      dataZoom: zoom
        ? [
            { type: 'inside', filterMode: 'none' },
            {
              type: 'slider',
              filterMode: 'none',
              height: 22,
              bottom: 8,
              /** @param {number} v */
              labelFormatter: (v) => new Date(v).toISOString().slice(0, 10),
            },
          ]
        : [],
      series,
    };
  }

  /**
   * ECharts option of top-N bars, largest first; `others` is the rest summed into one pale bar.
   * @param {BreakdownRow[]} rows
   * @param {string} unit
   * @param {{ count: number, value: number } | null} others
   */
  function topOption(rows, unit, others) {
    /** @type {BreakdownRow[]} */
    const all = others
      ? [...rows, { dimension: `${others.count} others`, value: others.value, other: true }]
      : rows;
    const names = all.map((r) => (r.dimension === null ? '(none)' : String(r.dimension)));
    return {
      animation: false,
      grid: { left: 8, right: 64, top: 4, bottom: 4, containLabel: true },
      tooltip: {
        trigger: 'item',
        /** @param {{ name: string, value: number }} p */
        formatter: (p) => `${p.name}<br/><strong>${formatValue(p.value, unit)}</strong>`,
      },
      xAxis: { type: 'value', show: false },
      yAxis: {
        type: 'category',
        inverse: true,
        data: names,
        axisTick: { show: false },
        axisLabel: { color: '#1d2330', width: 150, overflow: 'truncate' },
      },
      series: [
        {
          type: 'bar',
          data: all.map((r) => ({ value: r.value, itemStyle: { color: BLUE, opacity: r.other ? 0.35 : 1 } })),
          label: {
            show: true,
            position: 'right',
            /** @param {{ value: number }} p */
            formatter: (p) => formatValue(p.value, unit),
            color: '#1d2330',
          },
          barMaxWidth: 16,
        },
      ],
    };
  }

  /**
   * Draws `option` into `el` with the SVG renderer, resizing with the card.
   * @param {HTMLElement} el
   * @param {object} option
   * @param {number} height in pixels
   */
  function draw(el, option, height) {
    el.style.height = `${height}px`;
    const chart = window.echarts.getInstanceByDom(el) || window.echarts.init(el, null, { renderer: 'svg' });
    chart.setOption(option, true);
    if (!el.dataset.resizes) {
      el.dataset.resizes = '1';
      new ResizeObserver(() => chart.resize()).observe(el);
    }
    return chart;
  }

  return { seriesOption, topOption, draw, formatValue, rangeText, dayOf, bucketRows, grainFor };
})();
window.platCharts = platChartsLib;
