// The replay viewer: steps through the game recorded in #replay-data (written by meeple.tools.viewer).
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const steps = data.steps;
  const last = steps.length - 1;
  const $ = (id) => document.getElementById(id);
  const slider = $("slider");
  const boardLayer = $("board-layer");
  const piecesLayer = $("pieces-layer");
  let now = -1;
  let shownBoard = null;
  let shownLayer = null;

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // The whole log, once; each line knows its step and is hidden while that step lies ahead.
  const logLines = [];
  steps.forEach((step, i) => {
    step.log.forEach((line) => {
      const li = el("li", { "data-step": String(i) }, line.trim());
      if (/^-- |^== /.test(line)) li.className = "heading";
      else if (!/^\s/.test(line)) li.classList.add("decision");
      $("log").appendChild(li);
      logLines.push([i, li]);
    });
  });

  function entries(values, previous, into) {
    for (const [name, value] of Object.entries(values)) {
      const dt = el("dt", {}, name.replace(/_/g, " "));
      const dd = el("dd", {}, value === null ? "none" : String(value));
      if (previous && previous[name] !== value) dd.classList.add("changed");
      into.appendChild(dt);
      into.appendChild(dd);
    }
  }

  function zoneList(zones, into) {
    if (!zones || !zones.length) return;
    const ul = el("ul", { class: "zones" });
    zones.forEach((z) => {
      const li = el("li", {});
      li.appendChild(el("b", {}, `${z.name} (${z.count})`));
      li.appendChild(document.createTextNode(" " + z.cards));
      ul.appendChild(li);
    });
    into.appendChild(ul);
  }

  function showPlayers(step, before) {
    const box = $("players");
    box.textContent = "";
    step.players.forEach((r, p) => {
      const rec = data.records[r];
      const name = data.players[p];
      const prev = before ? data.records[before.players[p]] : null;
      const card = el("div", { class: "player", id: `player-${name}` });
      if (name === step.mover) card.classList.add("moving");
      if (step.winners.includes(name)) card.classList.add("winner");
      const h = el("h3", {});
      h.appendChild(el("span", { class: "swatch", style: `background:${data.colours[p % data.colours.length]}` }));
      const agent = data.agents[p] ? ` (${data.agents[p]})` : "";
      const seat = data.seat === name ? ", this seat" : "";
      h.appendChild(document.createTextNode(`${name}${agent}${seat}`));
      card.appendChild(h);
      const dl = el("dl", {});
      const score = el("dd", { class: "score", id: `score-${name}` }, rec.score === null ? "?" : String(rec.score));
      if (prev && prev.score !== rec.score) score.classList.add("changed");
      dl.appendChild(el("dt", {}, "score"));
      dl.appendChild(score);
      entries(rec.resources, prev && prev.resources, dl);
      entries(rec.vars, prev && prev.vars, dl);
      card.appendChild(dl);
      zoneList(rec.zones, card);
      box.appendChild(card);
    });
  }

  function showTable(step, before) {
    const box = $("table");
    box.textContent = "";
    const table = data.records[step.table];
    const dl = el("dl", {});
    entries(table.vars, before && data.records[before.table].vars, dl);
    box.appendChild(dl);
    zoneList(table.zones, box);
  }

  function show(i) {
    i = Math.max(0, Math.min(last, i));
    if (i === now) return;
    const step = steps[i];
    const before = i > 0 ? steps[i - 1] : null;
    now = i;
    slider.value = String(i);
    $("counter").textContent = `Step ${i} of ${last}`;
    let said = i === 0 ? "Set-up" : step.action;
    if (step.over) said += ` · game over, ${step.winners.length ? "won by " + step.winners.join(", ") : "no winner"}`;
    $("action").textContent = `Turn ${step.turn}: ${said}`;
    if (step.board !== shownBoard) {
      boardLayer.innerHTML = step.board === null ? "" : data.boards[step.board];
      shownBoard = step.board;
    }
    if (step.layer !== shownLayer) {
      piecesLayer.innerHTML = step.layer === null ? "" : data.layers[step.layer];
      shownLayer = step.layer;
    }
    showPlayers(step, before);
    showTable(step, before);
    let current = null;
    for (const [s, li] of logLines) {
      li.hidden = s > i;
      const here = s === i;
      li.classList.toggle("current", here);
      if (here && current === null) current = li;
    }
    if (current) {
      const log = $("log");
      log.scrollTop = current.offsetTop - log.clientHeight / 3; // #log is the lines' offset parent
    }
    $("prev").disabled = i === 0;
    $("first").disabled = i === 0;
    $("next").disabled = i === last;
    $("last").disabled = i === last;
  }

  if (!data.boards.length) document.body.classList.add("no-board"); // a card game: the table is the page
  slider.max = String(last);
  slider.addEventListener("input", () => show(Number(slider.value)));
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(now - 1));
  $("next").addEventListener("click", () => show(now + 1));
  $("last").addEventListener("click", () => show(last));
  document.addEventListener("keydown", (e) => {
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return; // the slider steps by itself
    const moves = { ArrowRight: 1, ArrowLeft: -1, PageDown: 10, PageUp: -10 };
    if (e.key in moves) show(now + moves[e.key]);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(last);
    else return;
    e.preventDefault();
  });
  const fromHash = Number((location.hash.match(/^#step-(\d+)$/) || [])[1] || 0);
  show(fromHash);
})();
