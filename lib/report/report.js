// The report page's script (compiled into modrec by lib/CMakeLists.txt): draws each run of the
// JSON in #modrec-data (lib/report/report_data.h) — charts sized to the page's width, the layer
// table and each layer's statistics — and draws the charts again when the width changes.
// No library and no network: the page is one file.
'use strict';
(function () {
  const SVG = 'http://www.w3.org/2000/svg';
  const FONT_PX = 10;  // the charts' text (.tick, .x-label, ... in the page's style)
  const LINE_PX = 14;  // the room one line of that text takes, so that boxes never meet
  const SCALE_SERIES = [  // the scale plot's series; s<k> is its colour class
    {capture: 'output', field: 'std', shape: 'circle'},
    {capture: 'output', field: 'abs_max', shape: 'circle'},
    {capture: 'grad_output', field: 'std', shape: 'square'},
    {capture: 'grad_output', field: 'abs_max', shape: 'square'},
  ];
  // Shaded value ranges of the scale plot, as log2 bounds.
  const BANDS = [
    {lo: -126, hi: 128, cls: 'bf16', text: 'bfloat16 normal range (2^-126 … 2^128)'},
    {lo: -24, hi: -14, cls: 'fp16-sub', text: 'float16 subnormal (2^-24 … 2^-14)'},
    {lo: -14, hi: Math.log2(65504), cls: 'fp16', text: 'float16 normal range (2^-14 … 65504)'},
  ];

  // ---- small helpers

  function html(tag, attrs, parent, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }

  function svg(tag, attrs, parent, text) {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }

  // Four significant digits as the table shows them; '' for an undefined (null) statistic.
  function fmt(v) {
    return v === null || v === undefined ? '' : String(Number(v.toPrecision(4)));
  }

  // A value's log2, or NaN for what a log axis cannot show (0, negative, undefined).
  function log2(v) {
    return typeof v === 'number' && v > 0 && isFinite(v) ? Math.log2(v) : NaN;
  }

  function color(i) {
    return 'hsl(' + (i * 137 % 360) + ',65%,42%)';
  }

  let measurer = null;
  // Width in px of `text` in the charts' font (the body's family at FONT_PX).
  function textWidth(text) {
    if (!measurer) {
      measurer = document.createElement('canvas').getContext('2d');
      measurer.font = FONT_PX + 'px ' + getComputedStyle(document.body).fontFamily;
    }
    return measurer.measureText(text).width;
  }

  // `text` cut at its start to fit `px` (a layer's label stays whole, the path loses its head).
  function fit(text, px) {
    if (textWidth(text) <= px) return text;
    let cut = text;
    while (cut.length > 1 && textWidth('…' + cut) > px) cut = cut.slice(1);
    return '…' + cut;
  }

  function layerName(layer) {
    return layer.label + ' ' + layer.path;
  }

  // ---- axes

  // A log2 axis over the values and [lo, hi], one unit of margin, between pixel rows top..bottom.
  function logAxis(values, lo, hi, top, bottom) {
    for (const v of values)
      if (isFinite(v)) { lo = Math.min(lo, Math.floor(v)); hi = Math.max(hi, Math.ceil(v)); }
    lo -= 1; hi += 1;
    return {lo: lo, hi: hi, y: v => top + (hi - v) / (hi - lo) * (bottom - top)};
  }

  // Grid lines and 2^e labels, every `step` exponents so that labels stand LINE_PX+ apart.
  function drawLogTicks(g, axis, box) {
    const perUnit = (box.bottom - box.top) / (axis.hi - axis.lo);
    let step = 1;
    while (step * perUnit < LINE_PX + 4) step *= 2;
    for (let e = Math.ceil(axis.lo / step) * step; e <= axis.hi; e += step) {
      const y = axis.y(e);
      svg('line', {class: 'grid', x1: box.left, x2: box.right, y1: y, y2: y}, g);
      svg('text', {class: 'tick', x: box.left - 4, y: y + 4, 'text-anchor': 'end'}, g, '2^' + e);
    }
  }

  // Which layer names go under a plot, and the room they take: each one, horizontal, when every
  // name fits its slot; else vertical, cut to `maxPx`, one kept where it stands LINE_PX from the
  // last one kept, so that no two labels' boxes meet.
  function layerAxis(names, xs, slot, maxPx) {
    const widths = names.map(textWidth);
    if (Math.max(0, ...widths) + 6 <= slot)
      return {vertical: false, height: LINE_PX + 4, kept: names.map((n, i) => i)};
    const kept = [];
    let last = -Infinity;
    xs.forEach(function (x, i) {
      if (x - last < LINE_PX) return;
      kept.push(i);
      last = x;
    });
    return {vertical: true, maxPx: maxPx, kept: kept,
            height: Math.min(Math.max(0, ...kept.map(i => widths[i])), maxPx) + 8};
  }

  function drawLayerAxis(g, names, xs, box, axis) {
    for (const i of axis.kept) {
      const attrs = axis.vertical ?
          {class: 'x-label', x: 0, y: 0, 'text-anchor': 'end',
           transform: 'translate(' + (xs[i] + 3.5) + ',' + (box.bottom + 4) + ') rotate(-90)'} :
          {class: 'x-label', x: xs[i], y: box.bottom + FONT_PX + 4, 'text-anchor': 'middle'};
      const t = svg('text', attrs, g, axis.vertical ? fit(names[i], axis.maxPx) : names[i]);
      svg('title', {}, t, names[i]);
    }
  }

  // The smallest of 1, 2, 5, 10, 20, ... that cuts `span` into at most `most` parts.
  function niceStep(span, most) {
    for (let p = 1; ; p *= 10)
      for (const m of [1, 2, 5])
        if (span / (m * p) <= most) return m * p;
  }

  // Numbered ticks from `first` to `last` (steps), as many as fit without their boxes meeting.
  function drawStepTicks(g, first, last, x, box) {
    const room = textWidth(String(last)) + 16;
    const step = niceStep(Math.max(last - first, 1), Math.max(1, (box.right - box.left) / room));
    for (let s = Math.ceil(first / step) * step; s <= last; s += step) {
      svg('line', {class: 'grid', x1: x(s), x2: x(s), y1: box.top, y2: box.bottom}, g);
      svg('text', {class: 'tick', x: x(s), y: box.bottom + FONT_PX + 4, 'text-anchor': 'middle'},
          g, String(s));
    }
  }

  // A caption under the chart, left-aligned below everything else.
  function caption(g, box, y, text) {
    svg('text', {class: 'axis-label', x: box.left, y: y}, g, text);
  }

  // ---- legends: one item per series, named by data-series (and data-layer for a layer's line)

  function legend(parent, items) {
    const box = html('div', {class: 'legend'}, parent);
    for (const it of items) {
      const attrs = {class: 'item', 'data-series': it.series};
      if (it.layer !== undefined) attrs['data-layer'] = it.layer;
      const item = html('span', attrs, box);
      const swatch = html('span', {class: 'swatch ' + (it.swatch || '')}, item);
      if (it.color) swatch.style.background = it.color;
      item.appendChild(document.createTextNode(it.text));
      it.element = item;
    }
    return box;
  }

  // ---- one run

  function Run(run, index, parent) {
    this.run = run;
    this.prefix = 'r' + index + '-';
    this.filter = '';
    this.zoom = null;  // [from, to) into the filtered layers, or null for all of them
    this.hidden = {};  // scale plot series switched off in its legend
    this.section = html('section', {class: 'run'}, parent);
    this.rowsByLayer = {};
    this.header();
    this.figures = html('div', {}, this.section);
    this.tables();
    this.hover();
  }

  Run.prototype.header = function () {
    const run = this.run, s = this.section;
    html('h2', {}, s, run.path);
    let text = run.kind + (run.model ? ' of ' + run.model : '');
    if (run.kind === 'watch')
      text += ', ' + run.steps_run + ' steps run; layers as of step ' + run.step;
    html('p', {}, s, text + '; ' + run.layers.length + ' layers');
    const flags = html('p', {class: 'flags'}, s);
    const rule = run.dead_rule;
    this.flagLine(flags, 'NaN/Inf: ', run.layers.filter(l => l.nonfinite));
    html('br', {}, flags);
    this.flagLine(flags, 'dead (output zero fraction ≥ ' + rule.zero_fraction + ' or std ≤ ' +
                  rule.min_std + '): ', run.layers.filter(l => l.dead));
    const controls = html('div', {class: 'controls'}, s);
    const box = html('input', {class: 'filter', type: 'search',
                               placeholder: 'filter layers: label, path or type'}, controls);
    const all = html('button', {type: 'button'}, controls, 'show all layers');
    this.status = html('span', {class: 'hint'}, controls);
    const self = this;
    box.addEventListener('input', function () {
      self.filter = box.value.toLowerCase();
      self.zoom = null;
      self.draw();
    });
    all.addEventListener('click', function () { self.zoom = null; self.draw(); });
  };

  Run.prototype.flagLine = function (parent, text, layers) {
    parent.appendChild(document.createTextNode(text));
    html('span', {class: 'flag'}, parent, String(layers.length));
    for (const l of layers) {
      parent.appendChild(document.createTextNode(' '));
      html('a', {href: '#' + this.prefix + 'layer-' + l.label}, parent, l.label);
    }
  };

  // The layers the charts and the table show: those the filter matches, within the zoom.
  Run.prototype.visible = function () {
    const f = this.filter;
    const matched = this.run.layers.filter(
        l => !f || (l.label + ' ' + l.path + ' ' + l.type).toLowerCase().indexOf(f) >= 0);
    this.matched = matched.length;
    return this.zoom ? matched.slice(this.zoom[0], this.zoom[1]) : matched;
  };

  Run.prototype.draw = function () {
    const layers = this.visible();
    const shown = {};
    for (const l of layers) shown[l.label] = true;
    this.status.textContent = 'showing ' + layers.length + ' of ' + this.run.layers.length +
        ' layers; drag across the scale plot to zoom, double-click it to zoom out';
    // Measured before the old charts go: without them the page may lose its scrollbar.
    const width = this.figures.clientWidth;
    this.figures.textContent = '';
    this.scalePlot(layers, width);
    this.heatmap(layers, width);
    this.memoryPlot(layers, width);
    if (this.run.kind === 'watch') {
      this.lossLine(width);
      for (const s of this.run.series) this.stepLines(s, shown, width);
    }
    for (const label in this.rowsByLayer)
      for (const r of this.rowsByLayer[label]) r.style.display = shown[label] ? '' : 'none';
  };

  // A titled figure holding a legend and an SVG chart of the given height, as wide as the page
  // allows (its border inside), or as `scroller`'s inside when it goes in a scrolling box of that
  // class.
  Run.prototype.figure = function (title, cls, width, height, items, scroller) {
    const fig = html('div', {class: 'figure'}, this.figures);
    html('h3', {}, fig, title);
    const key = items ? legend(fig, items) : null;
    const holder = scroller ? html('div', {class: scroller}, fig) : fig;
    const inner = scroller ? holder.clientWidth : width - 2;
    const chart = svg('svg', {class: 'chart ' + cls, width: inner, height: height, role: 'img'}, holder);
    return {fig: fig, svg: chart, legend: key, width: inner};
  };

  // A mark of `layer`: hovering shows its name and value, clicking goes to its table rows.
  Run.prototype.mark = function (tag, attrs, parent, layer, tip) {
    attrs['data-layer'] = layer.label;
    const m = svg(tag, attrs, parent);
    svg('title', {}, m, layerName(layer) + ': ' + tip);
    return m;
  };

  // ---- the scale plot: std and abs-max per layer call, log2 axis, over float16/bfloat16 ranges

  function firstTensor(layer, capture) {
    const c = layer.captures.find(c => c.name === capture);
    return c && c.tensors.length ? c.tensors[0] : null;
  }

  Run.prototype.scalePlot = function (layers, width) {
    const series = SCALE_SERIES.map((s, k) => Object.assign({k: k, name: s.capture + ' ' + s.field}, s))
        .filter(s => layers.some(l => firstTensor(l, s.capture)));
    const values = [];
    let zeros = false;
    for (const l of layers)
      for (const s of series) {
        const t = firstTensor(l, s.capture);
        if (t) values.push(log2(t.stats[s.field]));
        zeros = zeros || isZero(t, s.field);
      }
    const names = layers.map(layerName);
    const box = {left: 52, right: width - 12, top: 8, bottom: 268};
    // A value of exactly 0 has no log: its marks go in a row of their own below the log axis and
    // its bands, marked 0, and named in the legend.
    const zeroRow = zeros ? {y: box.bottom - LINE_PX / 2, top: box.bottom - LINE_PX - 4} : null;
    const slot = (box.right - box.left) / Math.max(layers.length, 1);
    const xs = layers.map((l, i) => box.left + (i + 0.5) * slot);
    const xAxis = layerAxis(names, xs, slot, 150);
    const height = box.bottom + xAxis.height + 22;
    const f = this.figure('Scale per layer (log2)', 'scale-plot', width, height,
                          scaleLegend(series, layers, zeros));
    const axis = logAxis(values, -24, 16, box.top, zeroRow ? zeroRow.top - 6 : box.bottom);
    axis.zero = zeroRow;
    const labels = bands(f.svg, axis, box);
    drawLogTicks(f.svg, axis, box);
    if (zeroRow) drawZeroRow(f.svg, zeroRow, box);
    const r = Math.max(2, Math.min(3.5, slot * 0.4));
    for (const s of series) {
      const g = svg('g', {'data-series': s.name}, f.svg);
      if (this.hidden[s.name]) g.style.display = 'none';
      layers.forEach((l, i) => this.scaleMark(g, s, l, xs[i], r, axis));
    }
    bandLabels(f.svg, labels, box);
    drawLayerAxis(f.svg, names, xs, box, xAxis);
    caption(f.svg, box, height - 6, 'layer calls in call order → (label and path)');
    this.toggles(f.legend, f.svg);
    this.brush(f.svg, box, xs);
  };

  // The row of the values that are exactly 0: a dashed line above it and its tick, "0".
  function drawZeroRow(g, row, box) {
    svg('line', {class: 'zero-line', x1: box.left, x2: box.right, y1: row.top, y2: row.top}, g);
    svg('text', {class: 'tick', x: box.left - 4, y: row.y + 4, 'text-anchor': 'end'}, g, '0');
  }

  // One item per series; one more for the red marks and one for the zeros when there are any.
  function scaleLegend(series, layers, zeros) {
    const items = series.map(s => ({series: s.name, text: s.name,
                                    swatch: 's' + s.k + (s.shape === 'circle' ? ' round' : '')}));
    const bad = layers.some(l => series.some(function (s) {
      const t = firstTensor(l, s.capture);
      return t && isBad(t, s.field);
    }));
    if (bad)
      items.push({series: 'non-finite', swatch: 'bad', text: 'NaN/Inf or undefined (top edge)'});
    if (zeros)
      items.push({series: 'zero', swatch: 'zero',
                  text: 'exactly 0, e.g. a std of 0 (hollow, in the row marked 0, below the log axis)'});
    return items;
  }

  function isBad(t, field) {
    return t.stats.nan_count + t.stats.inf_count > 0 || t.stats[field] === null;
  }

  // A statistic of exactly 0 (a constant tensor's std, a tensor of zeros' abs_max): no log.
  function isZero(t, field) {
    return !!t && !isBad(t, field) && t.stats[field] === 0;
  }

  Run.prototype.scaleMark = function (g, s, layer, x, r, axis) {
    const t = firstTensor(layer, s.capture);
    if (!t) return;
    const value = t.stats[s.field], v = log2(value), bad = isBad(t, s.field);
    const zero = isZero(t, s.field);
    const y = isFinite(v) ? axis.y(v) : zero ? axis.zero.y : axis.y(bad ? axis.hi : axis.lo);
    const attrs = {class: 'mark s' + s.k + (bad ? ' bad' : zero ? ' zero' : ''),
                   'data-chart': 'scale', 'data-series': s.name};
    if (s.shape === 'circle') Object.assign(attrs, {cx: x, cy: y, r: r});
    else Object.assign(attrs, {x: x - r + 0.5, y: y - r + 0.5, width: 2 * r - 1, height: 2 * r - 1});
    this.mark(s.shape === 'circle' ? 'circle' : 'rect', attrs, g, layer,
              s.name + ' = ' + (value === null ? 'undefined' : value));
  };

  // The ranges shaded; returns their labels' text and the y of their band's top edge.
  function bands(g, axis, box) {
    const labels = [];
    for (const b of BANDS) {
      const lo = Math.max(b.lo, axis.lo), hi = Math.min(b.hi, axis.hi);
      if (lo >= hi) continue;
      svg('rect', {class: b.cls, x: box.left, width: box.right - box.left, y: axis.y(hi),
                   height: axis.y(lo) - axis.y(hi)}, g);
      labels.push({y: axis.y(hi) + FONT_PX + 2, text: b.text});
    }
    return labels;
  }

  // Band labels inside the plot's right edge, over the marks; labels that would meet are moved
  // down, one line apart.
  function bandLabels(g, labels, box) {
    labels.sort((a, b) => a.y - b.y);
    let last = -Infinity;
    for (const l of labels) {
      l.y = Math.max(l.y, last + LINE_PX);
      last = l.y;
      svg('text', {class: 'band-label', x: box.right - 4, y: l.y, 'text-anchor': 'end'}, g, l.text);
    }
  }

  // Clicking a legend item hides or shows its series.
  Run.prototype.toggles = function (key, chart) {
    const self = this;
    key.querySelectorAll('.item').forEach(function (item) {
      const name = item.dataset.series;
      const g = chart.querySelector('g[data-series="' + name + '"]');
      if (!g) return;
      item.style.cursor = 'pointer';
      item.title = 'click to hide or show';
      if (self.hidden[name]) item.classList.add('off');
      item.addEventListener('click', function () {
        self.hidden[name] = !self.hidden[name];
        item.classList.toggle('off', self.hidden[name]);
        g.style.display = self.hidden[name] ? 'none' : '';
      });
    });
  };

  // Dragging across the plot zooms to the layers under the drag; a double-click zooms out.
  Run.prototype.brush = function (chart, box, xs) {
    const self = this;
    let start = null, rect = null;
    const at = e => e.clientX - chart.getBoundingClientRect().left;
    chart.addEventListener('mousedown', function (e) {
      start = at(e);
      rect = svg('rect', {class: 'brush', x: start, y: box.top, width: 0,
                          height: box.bottom - box.top, 'pointer-events': 'none'}, chart);
      e.preventDefault();
    });
    chart.addEventListener('mousemove', function (e) {
      if (start === null) return;
      const x = at(e);
      rect.setAttribute('x', Math.min(x, start));
      rect.setAttribute('width', Math.abs(x - start));
    });
    chart.addEventListener('mouseup', function (e) {
      if (start === null) return;
      const a = Math.min(start, at(e)), b = Math.max(start, at(e));
      start = null;
      rect.remove();
      if (b - a < 4) return;
      const inside = xs.map((x, i) => x >= a && x <= b ? i : -1).filter(i => i >= 0);
      if (!inside.length) return;
      const from = self.zoom ? self.zoom[0] : 0;
      self.zoom = [from + inside[0], from + inside[inside.length - 1] + 1];
      self.draw();
    });
    chart.addEventListener('dblclick', function () { self.zoom = null; self.draw(); });
  };

  // ---- the heatmap: one row per layer, one cell per histogram bin over the layer's [-R, R]

  Run.prototype.heatmap = function (layers, width) {
    const capture = this.run.heatmap_capture;
    const rows = layers.map(l => [l, firstTensor(l, capture)]).filter(r => r[1]);
    const names = rows.map(r => layerName(r[0]));
    const height = 4 + rows.length * LINE_PX + 2 * LINE_PX + 8;
    const f = this.figure('Histograms, layer × bin (' + capture + ')', 'heatmap', width, height,
                          [{series: capture + ' histogram', swatch: 'heat',
                            text: 'count in the bin: shade √(count / the row’s largest)'}],
                          'heat-box');
    const labelPx = Math.min(Math.max(0, ...names.map(textWidth)), 260, f.width * 0.35);
    const box = {left: labelPx + 8, right: f.width - 72, top: 4, bottom: 4 + rows.length * LINE_PX};
    rows.forEach((r, i) => this.heatRow(f.svg, r[0], r[1].histogram, box.top + i * LINE_PX,
                                        box, labelPx, capture));
    const mid = (box.left + box.right) / 2, y = box.bottom + FONT_PX + 4;
    svg('text', {class: 'tick', x: box.left, y: y}, f.svg, '−R');
    svg('text', {class: 'tick', x: mid, y: y, 'text-anchor': 'middle'}, f.svg, '0');
    svg('text', {class: 'tick', x: box.right, y: y, 'text-anchor': 'end'}, f.svg, '+R');
    caption(f.svg, box, height - 4,
            'bins over each layer’s [−R, R], R the power of two ≥ its abs-max (right)');
  };

  Run.prototype.heatRow = function (chart, layer, h, y, box, labelPx, capture) {
    const g = this.mark('g', {class: 'heat-row mark', 'data-chart': 'heatmap',
                              'data-series': capture + ' histogram'}, chart, layer,
                        capture + ' histogram over ±' + h.range);
    const top = Math.max(0, ...h.counts);
    const cell = (box.right - box.left) / Math.max(h.counts.length, 1);
    h.counts.forEach(function (c, b) {
      const shade = top > 0 ? Math.sqrt(c / top) : 0;
      svg('rect', {x: box.left + b * cell, y: y, width: cell + 0.3, height: LINE_PX - 1,
                   fill: 'rgba(30,60,160,' + shade.toFixed(3) + ')'}, g);
    });
    const name = layerName(layer);
    svg('text', {class: 'row-label', x: box.left - 4, y: y + FONT_PX + 1, 'text-anchor': 'end'}, g,
        fit(name, labelPx));
    svg('text', {class: 'tick', x: box.right + 4, y: y + FONT_PX + 1}, g, '±' + h.range);
  };

  // ---- measured memory (record --columns saved_bytes,peak_bytes): three bars per layer call

  const MEMORY_SERIES = ['saved_bytes', 'peak_forward_bytes', 'peak_backward_bytes'];

  Run.prototype.memoryPlot = function (layers, width) {
    const measured = layers.filter(l => l.memory);
    if (!measured.length) return;
    const names = measured.map(layerName);
    const box = {left: 64, right: width - 12, top: 8, bottom: 208};
    const slot = (box.right - box.left) / measured.length;
    const xs = measured.map((l, i) => box.left + (i + 0.5) * slot);
    const xAxis = layerAxis(names, xs, slot, 150);
    const height = box.bottom + xAxis.height + 22;
    const f = this.figure('Memory per layer (MB, measured)', 'memory-plot', width, height,
                          MEMORY_SERIES.map((s, k) => ({series: s, swatch: 's' + k, text: s})));
    const top = Math.max(1, ...measured.map(l => Math.max(...MEMORY_SERIES.map(s => l.memory[s]))));
    const y = v => box.bottom - (v / top) * (box.bottom - box.top);
    const step = niceStep(top / 1e3, 5) / 1e3;  // in MB, a kB at the least
    for (let mb = 0; mb * 1e6 <= top; mb += step) {
      svg('line', {class: 'grid', x1: box.left, x2: box.right, y1: y(mb * 1e6), y2: y(mb * 1e6)}, f.svg);
      svg('text', {class: 'tick', x: box.left - 4, y: y(mb * 1e6) + 4, 'text-anchor': 'end'}, f.svg,
          fmt(mb));
    }
    const bar = Math.max(1, slot / (MEMORY_SERIES.length + 1));
    MEMORY_SERIES.forEach((s, k) => {
      const g = svg('g', {'data-series': s}, f.svg);
      measured.forEach((l, i) => {
        const v = l.memory[s], x = xs[i] + (k - MEMORY_SERIES.length / 2) * bar;
        this.mark('rect', {class: 'mark s' + k, 'data-chart': 'memory', 'data-series': s,
                           'data-value': v, x: x, y: y(v), width: bar, height: box.bottom - y(v)},
                  g, l, s + ' = ' + v + ' bytes');
      });
    });
    drawLayerAxis(f.svg, names, xs, box, xAxis);
    caption(f.svg, box, height - 6, 'layer calls in call order → (label and path)');
  };

  // ---- watch: the loss, and one line per layer over the recorded steps

  // A log2 line chart over steps: `lines` are [{points: [[step, value]...], attrs, tip}].
  Run.prototype.lineChart = function (title, cls, width, lines, items) {
    const box = {left: 52, right: width - 12, top: 8, bottom: 228};
    const height = box.bottom + LINE_PX + 24;
    const f = this.figure(title, cls, width, height, items);
    const all = [].concat(...lines.map(l => l.points));
    const steps = all.map(p => p[0]);
    const first = Math.min(...steps), last = Math.max(...steps);
    const axis = logAxis(all.map(p => log2(p[1])), 0, 0, box.top, box.bottom);
    const x = s => box.left + (last > first ? (s - first) / (last - first) : 0.5) * (box.right - box.left);
    drawLogTicks(f.svg, axis, box);
    drawStepTicks(f.svg, first, last, x, box);
    for (const l of lines) {
      const pts = l.points.filter(p => isFinite(log2(p[1]))).map(p => x(p[0]) + ',' + axis.y(log2(p[1])));
      const line = svg('polyline', Object.assign({points: pts.join(' ')}, l.attrs), f.svg);
      svg('title', {}, line, l.tip);
    }
    caption(f.svg, box, height - 6, 'steps →');
    return f;
  };

  Run.prototype.lossLine = function (width) {
    const points = this.run.losses.map((v, i) => [i + 1, v]);
    this.lineChart('Loss per step (log2)', 'loss-line', width,
                   [{points: points, attrs: {class: 'line loss', stroke: '#222',
                                             'data-chart': 'loss', 'data-series': 'loss'}, tip: 'loss'}],
                   [{series: 'loss', text: 'training loss', swatch: 'line', color: '#222'}]);
  };

  Run.prototype.stepLines = function (series, shown, width) {
    const order = {};
    this.run.layers.forEach((l, i) => { order[l.label] = l; l.index = i; });
    const lines = series.lines.filter(l => shown[l.label]).map(function (l) {
      const layer = order[l.label];
      return {layer: layer, color: color(layer.index),
              points: l.steps.map((s, i) => [s, l.std[i]])};
    });
    const self = this;
    const f = this.lineChart(series.capture + ' std over steps (log2)', 'step-lines', width,
        lines.map(l => ({points: l.points, tip: layerName(l.layer) + ': ' + series.capture + ' std',
                         attrs: {class: 'line mark', stroke: l.color, 'data-chart': 'steps',
                                 'data-series': series.capture, 'data-layer': l.layer.label}})),
        lines.map(l => ({series: series.capture, layer: l.layer.label, text: layerName(l.layer),
                         swatch: 'line', color: l.color})));
    f.svg.querySelectorAll('polyline').forEach(function (p) {
      p.addEventListener('click', () => self.go(p.dataset.layer));
    });
    this.spotlight(f);
  };

  // Hovering a line's legend item or the line itself brings it forward and fades the others.
  Run.prototype.spotlight = function (f) {
    const lines = f.svg.querySelectorAll('polyline');
    function light(label) {
      lines.forEach(function (p) {
        p.classList.toggle('dim', label !== null && p.dataset.layer !== label);
        p.classList.toggle('hot', p.dataset.layer === label);
      });
    }
    f.legend.querySelectorAll('.item').forEach(function (item) {
      item.addEventListener('mouseenter', () => light(item.dataset.layer));
      item.addEventListener('mouseleave', () => light(null));
    });
    lines.forEach(function (p) {
      p.addEventListener('mouseenter', () => light(p.dataset.layer));
      p.addEventListener('mouseleave', () => light(null));
    });
  };

  // ---- the layer table and each layer's statistics

  Run.prototype.tables = function () {
    html('h3', {}, this.section, 'Layers');
    const table = html('table', {}, html('div', {class: 'table-box'}, this.section));
    const head = html('tr', {}, html('thead', {}, table));
    for (const c of ['label', 'path', 'type', 'capture', 'tensor', 'shape'])
      html('th', {class: 't'}, head, c);
    for (const c of ['mean', 'std', 'abs_max', 'zero_fraction', 'nan', 'inf']) html('th', {}, head, c);
    const body = html('tbody', {}, table);
    for (const layer of this.run.layers) this.layerRows(body, layer);
    html('h3', {}, this.section, 'Statistics per layer');
    for (const layer of this.run.layers) this.statistics(layer);
  };

  Run.prototype.layerRows = function (body, layer) {
    const rows = this.rowsByLayer[layer.label] = [];
    for (const c of layer.captures)
      c.tensors.forEach(function (t, i) {
        const cls = t.stats.nan_count + t.stats.inf_count > 0 ? 'nonfinite' :
            c.name === 'output' && layer.dead && i === 0 ? 'dead' : '';
        const row = html('tr', {class: cls, 'data-layer': layer.label}, body);
        if (!rows.length) row.id = this.prefix + 'layer-' + layer.label;
        const cell = html('td', {class: 't'}, row);
        html('a', {href: '#' + this.prefix + 'stats-' + layer.label}, cell, layer.label);
        const name = t.name || t.at || String(t.index);  // at: the place in a nested value, [1][0]
        for (const text of [layer.path, layer.type, c.name, name, t.shape.join('x')])
          html('td', {class: 't'}, row, text);
        for (const k of ['mean', 'std', 'abs_max', 'zero_fraction']) html('td', {}, row, fmt(t.stats[k]));
        html('td', {}, row, String(t.stats.nan_count));
        html('td', {}, row, String(t.stats.inf_count));
        rows.push(row);
      }, this);
  };

  // A layer's statistics in stats.json's form (the histogram as R and counts), written out when
  // first opened: the page stays light with hundreds of layers.
  Run.prototype.statistics = function (layer) {
    const d = html('details', {id: this.prefix + 'stats-' + layer.label}, this.section);
    html('summary', {}, d, layerName(layer) + ' (' + layer.type + ')');
    d.addEventListener('toggle', function () {
      if (!d.open || d.querySelector('pre')) return;
      const captures = {};
      for (const c of layer.captures)
        captures[c.name] = c.tensors.map(t => Object.assign(
            {tensor: t.index}, t.name ? {name: t.name} : {},
            {shape: t.shape, dtype: t.dtype}, t.stats, {histogram: t.histogram}));
      html('pre', {}, d, JSON.stringify(captures, null, 1));
    });
  };

  // ---- links between charts, rows and statistics

  Run.prototype.go = function (label) {
    location.hash = '#' + this.prefix + 'layer-' + label;
  };

  // Hovering a chart's mark outlines its layer's table rows; clicking it goes to them.
  Run.prototype.hover = function () {
    const self = this;
    function rowsOf(e) {
      const m = e.target.closest && e.target.closest('[data-chart]');
      return m ? self.rowsByLayer[m.dataset.layer] || [] : [];
    }
    this.figures.addEventListener('mouseover', e => rowsOf(e).forEach(r => r.classList.add('hl')));
    this.figures.addEventListener('mouseout', e => rowsOf(e).forEach(r => r.classList.remove('hl')));
    this.figures.addEventListener('click', function (e) {
      const m = e.target.closest && e.target.closest('[data-chart]');
      if (m && m.dataset.chart !== 'steps') self.go(m.dataset.layer);
    });
  };

  // A link to a layer's statistics opens them.
  function openTarget() {
    const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target && target.tagName === 'DETAILS') target.open = true;
  }

  // ---- the page

  const data = JSON.parse(document.getElementById('modrec-data').textContent);
  const parent = document.getElementById('runs');
  const runs = data.runs.map((r, i) => new Run(r, i, parent));
  // Drawn again whenever the runs' width changes: the window's, or a scrollbar the charts
  // themselves brought (hence the second call, which draws only then).
  let width = -1, timer = null;
  function drawAll() {
    if (parent.clientWidth === width) return;
    width = parent.clientWidth;
    runs.forEach(r => r.draw());
  }
  drawAll();
  drawAll();
  openTarget();
  window.addEventListener('hashchange', openTarget);
  new ResizeObserver(function () {
    clearTimeout(timer);
    timer = setTimeout(drawAll, 150);
  }).observe(parent);
})();
