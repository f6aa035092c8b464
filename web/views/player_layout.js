// The schedule player's layout: where devices, their buffer cells, messages and the
// aggregated bars go, in the drawing's own units. Pure (no DOM): it runs under Node
// (tests/node/player_model.test.mjs); views/player.js draws what it places.

/**
 * Two levels (P5 §2.3, §5.5): a grid, one box per node, the GPUs of one local rank in one column
 * (or row, when there are more nodes than GPUs per node, so the long side runs across the page).
 * Every route runs in the gutters between rows and columns, so by construction it touches no
 * device but its two ends.
 */
export function gridLayout(res, W) {
  const N = res.topology.nodes;
  const G = res.topology.gpus_per_node;
  const nodesAreRows = G >= N;
  const rows = nodesAreRows ? N : G;
  const cols = nodesAreRows ? G : N;
  const left = nodesAreRows ? 58 : 14;
  const top = nodesAreRows ? 10 : 26;
  const pitchX = (W - left - 10) / cols;
  const dw = Math.max(14, Math.min(64, pitchX * 0.62));
  const gx = pitchX - dw;
  const dh = res.devices <= 16 ? 30 : 24;
  const gy = Math.max(34, Math.min(56, 18 + 2.5 * Math.max(cols, rows)));
  const pitchY = dh + gy;
  const H = top + rows * pitchY + 6;
  const pos = [];
  for (let d = 0; d < res.devices; ++d) {
    const node = Math.floor(d / G);
    const local = d % G;
    const row = nodesAreRows ? node : local;
    const col = nodesAreRows ? local : node;
    const x = left + col * pitchX + gx / 2;
    const y = top + row * pitchY + gy / 2;
    pos.push({ row, col, node, local, x, y, w: dw, h: dh, cx: x + dw / 2, cy: y + dh / 2 });
  }
  const groups = [];
  for (let n = 0; n < N; ++n) {
    if (nodesAreRows) groups.push({ node: n, x: left - 50, y: top + n * pitchY + 4, w: W - left + 50 - 6, h: pitchY - 8, lx: left - 46, ly: top + n * pitchY + gy / 2 + dh / 2 + 4 });
    else groups.push({ node: n, x: left + n * pitchX + 2, y: 4, w: pitchX - 4, h: H - 8, lx: left + n * pitchX + pitchX / 2, ly: 18, anchor: 'middle' });
  }
  // Each column's local rank under it: "local 3", or on a narrow grid (a phone) "3" under the
  // column and "local" once at the left, where the node names are, so no two labels touch.
  const labels = [];
  const short = pitchX < 46;
  for (let g = 0; g < G; ++g) {
    if (nodesAreRows) labels.push({ g, x: left + g * pitchX + pitchX / 2, y: H - 1, anchor: 'middle', short });
  }
  if (nodesAreRows && short) labels.push({ caption: true, x: left - 46, y: H - 1, anchor: 'start' });
  /** Points of the route from device a to device b, in the gutters. */
  function route(a, b, lane) {
    const A = pos[a];
    const B = pos[b];
    const inset = Math.min(A.w, B.w) * 0.22;
    const laneY = (span) => Math.min(gy / 2 - 3, 5 + 3 * Math.min(span - 1, 4) + (lane % 2) * 1.5);
    if (A.row === B.row) {
      // Along the row: rightward above it, leftward below, higher for longer spans.
      const up = B.col > A.col;
      const off = laneY(Math.abs(B.col - A.col));
      const y = up ? A.y - off : A.y + A.h + off;
      const ya = up ? A.y : A.y + A.h;
      return [[A.cx + (up ? inset : -inset), ya], [A.cx + (up ? inset : -inset), y], [B.cx - (up ? inset : -inset), y], [B.cx - (up ? inset : -inset), ya]];
    }
    if (A.col === B.col) {
      // Along the column: downward in the gutter to its right, upward in the gutter to its left.
      const down = B.row > A.row;
      const off = Math.min(gx / 2 - 2, 4 + 2.5 * Math.min(Math.abs(B.row - A.row) - 1, 3) + (lane % 2) * 1.5);
      const x = down ? A.x + A.w + off : A.x - off;
      const xa = down ? A.x + A.w : A.x;
      if (Math.abs(B.row - A.row) === 1) { // neighbours: straight across the gutter between them
        const dx = down ? inset : -inset;
        return [[A.cx + dx, down ? A.y + A.h : A.y], [B.cx + dx, down ? B.y : B.y + B.h]];
      }
      return [[xa, A.cy + (down ? 4 : -4)], [x, A.cy + (down ? 4 : -4)], [x, B.cy + (down ? -4 : 4)], [xa, B.cy + (down ? -4 : 4)]];
    }
    // Elsewhere: out into the gutter beside the source's row on the destination's side, across
    // to the destination's column, along its gutter, then in.
    const down = B.row > A.row;
    const yOut = down ? A.y + A.h + gy / 2 + (lane % 3 - 1) * 2 : A.y - gy / 2 + (lane % 3 - 1) * 2;
    const yIn = down ? B.y - gy / 2 + (lane % 3 - 1) * 2 : B.y + B.h + gy / 2 + (lane % 3 - 1) * 2;
    const sx = A.cx + (down ? 0.4 : -0.4) * inset;
    const tx = B.cx - (down ? 0.4 : -0.4) * inset;
    if (Math.abs(B.row - A.row) === 1) return [[sx, down ? A.y + A.h : A.y], [sx, yOut], [tx, yOut], [tx, down ? B.y : B.y + B.h]];
    const gxPos = B.col > A.col ? B.x - gx / 2 : B.x + B.w + gx / 2; // the gutter beside B, on A's side
    return [[sx, down ? A.y + A.h : A.y], [sx, yOut], [gxPos, yOut], [gxPos, yIn], [tx, yIn], [tx, down ? B.y : B.y + B.h]];
  }
  return { pos, groups, labels, H, route, nodesAreRows, rect: true };
}

/** Flat topologies: devices round a circle (the switch, or the in-switch reducer, in the middle). */
export function circleLayout(res, W, H, margin = res.devices <= 16 ? 52 : 30) {
  const k = res.devices;
  const R = Math.min(W, H) / 2 - margin;
  const pos = [];
  for (let i = 0; i < k; ++i) {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / k;
    pos.push({ x: W / 2 + R * Math.cos(a), y: H / 2 + R * Math.sin(a), a });
  }
  pos.push({ x: W / 2, y: H / 2 }); // the switch (node k of in-switch reduction)
  const c = { x: W / 2, y: H / 2 };
  /** A curve bowing towards the centre: it stays inside the wedge of its two ends, where no other device stands. */
  function route(a, b) {
    const A = pos[a];
    const B = pos[b];
    if (a === k || b === k) return { line: [A, B] };
    const mx = (A.x + B.x) / 2;
    const my = (A.y + B.y) / 2;
    // Control point between the centre and the chord's middle; a little to the side per
    // direction so that a -> b and b -> a do not coincide.
    const f = 0.25;
    let qx = c.x + (mx - c.x) * f;
    let qy = c.y + (my - c.y) * f;
    const dx = B.x - A.x;
    const dy = B.y - A.y;
    const len = Math.hypot(dx, dy) || 1;
    const side = Math.min(10, len * 0.08);
    qx += (-dy / len) * side;
    qy += (dx / len) * side;
    return { quad: [A, { x: qx, y: qy }, B] };
  }
  return { pos, H, route, R };
}

/** An SVG path through points with rounded corners. */
export function roundedPath(pts, r = 5) {
  let d = `M${pts[0][0].toFixed(1)} ${pts[0][1].toFixed(1)}`;
  for (let i = 1; i < pts.length; ++i) {
    const [x, y] = pts[i];
    if (i < pts.length - 1) {
      const [px, py] = pts[i - 1];
      const [nx, ny] = pts[i + 1];
      const l1 = Math.hypot(x - px, y - py) || 1;
      const l2 = Math.hypot(nx - x, ny - y) || 1;
      const rr = Math.min(r, l1 / 2, l2 / 2);
      d += ` L${(x - ((x - px) / l1) * rr).toFixed(1)} ${(y - ((y - py) / l1) * rr).toFixed(1)}`;
      d += ` Q${x.toFixed(1)} ${y.toFixed(1)} ${(x + ((nx - x) / l2) * rr).toFixed(1)} ${(y + ((ny - y) / l2) * rr).toFixed(1)}`;
    } else d += ` L${x.toFixed(1)} ${y.toFixed(1)}`;
  }
  return d;
}

/**
 * Devices drawn one by one for `res` in a stage `width` px wide, each with `cells` buffer cells:
 * the drawing's size (W x H), each device's body, label and cells, the boxes message labels keep
 * clear of, and the routes between devices (`route(a, b, lane)`, by the topology's layout).
 */
export function deviceLayout(res, width, cells) {
  const k = res.devices;
  const two = res.topology?.kind === 'two_level';
  const phone = width < 560;
  // On a phone the drawing is as wide as its stage, so its text is drawn at its own size.
  const W = phone ? Math.min(380, Math.max(300, Math.round(width))) : 640;
  const r = two ? 0 : k <= 8 ? 16 : k <= 16 ? 13 : k <= 32 ? 10 : 7;
  const withCells = k <= 16;
  const side = phone ? (k <= 16 ? 360 : 380) : (k <= 16 ? 400 : 460);
  // A device's strip is at most 70% of the arc to the next device, so neighbours' strips never
  // run together, and the circle leaves room for it outside.
  const margin = k <= 16 ? 52 : 30;
  const arc = (2 * Math.PI * (Math.min(W, side) / 2 - margin + r + 9)) / k;
  const stripMax = Math.min(cells * 10, phone ? 64 : 96, Math.floor(0.7 * arc));
  const lay = two ? gridLayout(res, W) : circleLayout(res, W, side, Math.max(margin, r + 8 + stripMax));
  const H = lay.H;
  const devices = [];
  for (let d = 0; d < k; ++d) {
    const p = lay.pos[d];
    let label;
    let stripX; let stripY; let stripW;
    if (two) {
      const fs = p.w >= 26 ? 12 : 11;
      label = { x: p.cx, y: withCells ? p.y + 12 : p.cy + fs / 2 - 1, size: fs };
      stripX = p.x + 3; stripW = p.w - 6; stripY = p.y + p.h - 12;
    } else {
      label = { x: p.x, y: p.y + 4, size: r >= 12 ? 12 : r >= 10 ? 11 : 9 };
      // The strip sits outward from the centre, clear of the messages inside the circle.
      stripW = stripMax;
      const dx = p.x - W / 2;
      const dy = p.y - H / 2;
      const len = Math.hypot(dx, dy) || 1;
      const ux = dx / len;
      const uy = dy / len;
      const reach = r + 4 + Math.abs(ux) * (stripW / 2) + Math.abs(uy) * 5;
      stripX = p.x + ux * reach - stripW / 2;
      stripY = p.y + uy * reach - 5;
    }
    const strip = [];
    if (withCells) {
      const cw = stripW / cells;
      for (let c = 0; c < cells; ++c) strip.push({ x: stripX + c * cw, y: stripY, w: Math.max(0.8, cw - (cw > 3 ? 0.8 : 0.3)), h: 9 });
    }
    devices.push({ ...p, label, cells: withCells ? strip : null });
  }
  // Boxes that message labels keep clear of: devices with their cells, the switch.
  const boxes = two ? lay.pos.map((p) => ({ x: p.x, y: p.y, w: p.w, h: p.h }))
    : lay.pos.slice(0, k).map((p) => ({ x: p.x - r, y: p.y - r, w: 2 * r, h: 2 * r }));
  const hub = two ? null : { ...lay.pos[k], box: { x: W / 2 - 32, y: H / 2 - 13, w: 64, h: 26 } };
  if (!two && res.topology?.kind !== 'ring') boxes.push(hub.box);
  // Message ends: the devices' centres.
  const pos = two ? lay.pos.map((p) => ({ ...p, x: p.cx, y: p.cy })) : lay.pos;
  return { W, H, two, r, devices, hub, groups: lay.groups ?? [], labels: lay.labels ?? [], boxes, pos, route: lay.route };
}

/**
 * The path of message `m` (the `lane`-th of its step) from device to device: {d, mid}, `mid`
 * where its size label goes; null when an end is not drawn. `hub` is the in-switch reducer's
 * index (the device count): arrows to and from it stop short of the switch.
 */
export function messagePath(layout, m, lane, hub) {
  const { pos } = layout;
  if (!pos[m.src] || !pos[m.dst]) return null;
  const r = layout.route(m.src, m.dst, lane);
  if (Array.isArray(r)) {
    // The label sits on the longest segment.
    let best = 0;
    let mid;
    for (let j = 1; j < r.length; ++j) {
      const l = Math.hypot(r[j][0] - r[j - 1][0], r[j][1] - r[j - 1][1]);
      if (l > best) { best = l; mid = { x: (r[j][0] + r[j - 1][0]) / 2, y: (r[j][1] + r[j - 1][1]) / 2 }; }
    }
    return { d: roundedPath(r), mid };
  }
  const [A, Q, B] = r.quad ?? [r.line[0], null, r.line[1]];
  // Start and end on the devices' rims.
  const rad = layout.r + 1;
  const towards = (P, T) => { const l = Math.hypot(T.x - P.x, T.y - P.y) || 1; return { x: P.x + ((T.x - P.x) / l) * rad, y: P.y + ((T.y - P.y) / l) * rad }; };
  const a = towards(A, Q ?? B);
  const b = towards(B, Q ?? A);
  if (m.src === hub) Object.assign(a, { x: A.x + (b.x - A.x) * 0.18, y: A.y + (b.y - A.y) * 0.18 });
  if (m.dst === hub) Object.assign(b, { x: B.x + (a.x - B.x) * 0.18, y: B.y + (a.y - B.y) * 0.18 });
  if (Q) {
    return {
      d: `M${a.x.toFixed(1)} ${a.y.toFixed(1)} Q${Q.x.toFixed(1)} ${Q.y.toFixed(1)} ${b.x.toFixed(1)} ${b.y.toFixed(1)}`,
      mid: { x: 0.25 * a.x + 0.5 * Q.x + 0.25 * b.x, y: 0.25 * a.y + 0.5 * Q.y + 0.25 * b.y },
    };
  }
  return { d: `M${a.x.toFixed(1)} ${a.y.toFixed(1)} L${b.x.toFixed(1)} ${b.y.toFixed(1)}`, mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
}

/** The box a size label `text` centred on `mid` takes. */
export function labelBox(mid, text) {
  const bw = text.length * 5.6 + 2;
  return { x: mid.x - bw / 2, y: mid.y - 6, w: bw, h: 11 };
}

/** Whether two boxes {x, y, w, h} overlap. */
export const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * The aggregated view of `steps` in a stage `width` px wide: one bar a step (`bars`, a single
 * path: there may be thousands), the time axis's ticks (`yTicks`, {y, value} in seconds), the
 * step numbers' (`xTicks`, {x, step}), and `markerX(step)` for the step shown.
 */
export function aggregatedLayout(steps, width) {
  const W = width < 560 ? Math.min(380, Math.max(300, Math.round(width))) : 640;
  const H = 230;
  const x0 = 58;
  const x1 = W - 12;
  const yTop = 26;
  const yBase = H - 34;
  const max = steps.reduce((m, s) => Math.max(m, s.time_s), -Infinity); // no spread: steps can be 100,000s
  const bw = (x1 - x0) / steps.length;
  let bars = '';
  steps.forEach((s, i) => {
    const hgt = max > 0 ? (s.time_s / max) * (yBase - yTop) : 0;
    bars += `M${(x0 + i * bw).toFixed(2)} ${yBase}v${(-hgt).toFixed(2)}h${Math.max(0.4, bw - (bw > 3 ? 1 : 0)).toFixed(2)}v${hgt.toFixed(2)}z`;
  });
  const yTicks = [0, 0.5, 1].map((f) => ({ y: yBase - f * (yBase - yTop), value: f * max }));
  const ticks = [1];
  const stride = 10 ** Math.floor(Math.log10(Math.max(1, steps.length / 4)));
  const inc = [1, 2, 5, 10].map((m) => m * stride).find((v) => steps.length / v <= (W < 500 ? 4 : 7)) ?? stride * 10;
  for (let v = inc; v < steps.length; v += inc) if (v - 1 > steps.length * 0.06 && steps.length - v > steps.length * 0.08) ticks.push(v);
  if (steps.length > 1) ticks.push(steps.length);
  const xTicks = ticks.map((v) => ({ x: x0 + (v - 0.5) * bw, step: v }));
  const markerX = (step) => (step === 0 ? x0 : x0 + (step - 0.5) * bw);
  return { W, H, x0, x1, yTop, yBase, bw, bars, yTicks, xTicks, markerX };
}
