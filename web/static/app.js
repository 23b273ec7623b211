// The playground's page. It holds no rules: which steps may come next, why a step is refused and
// what a step did all come from the server (web/app.py), which asks the library. The page only
// draws what it is sent and turns clicks into the steps the server offered.
"use strict";

const PLAYERS = ["person", "random", "greedy", "mcts:200"];
const page = {
  packs: [],      // from /api/packs
  game: null,     // the table's view (GET /api/games/ID)
  steps: [],      // the steps of the person's turn begun, in notation
  offered: null,  // the options view for those steps
  worker: null,   // the worker picked ('A1'), whose squares are shown
  placing: [],    // squares picked for a placement
  polling: null,
  busy: 0,        // requests under way (a test waits for none)
};
window.playground = page;

const $ = (id) => document.getElementById(id);

async function call(method, path, body) {
  page.busy += 1;
  try {
    return await send(method, path, body);
  } finally {
    page.busy -= 1;
  }
}

async function send(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await response.json(); } catch (_) { data = { error: `the server answered ${response.status}` }; }
  if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
  return data;
}

function say(text) {
  const box = $("message");
  box.textContent = text || "";
  box.hidden = !text;
}

// ---- the new-game form
async function loadPacks() {
  page.packs = (await call("GET", "/api/packs")).packs;
  const select = $("pack");
  for (const pack of page.packs) {
    const option = new Option(`${pack.name}: ${pack.title}`, pack.name, pack.name === "bga", pack.name === "bga");
    select.add(option);
  }
  fillCards();
  drawSeatFields();
}

function currentPack() {
  return page.packs.find((p) => p.name === $("pack").value) || page.packs[0];
}

function fillCards() {
  const list = $("card-names");
  list.replaceChildren(...currentPack().cards.map((card) => new Option(card.summary, card.name)));
  fillModes();
}

// The pack's modes for this many seats, its default for the count chosen first.
function fillModes() {
  const pack = currentPack();
  const count = Number($("seat-count").value);
  const chosen = pack.default_modes[String(count)];
  const select = $("mode");
  select.replaceChildren(...pack.modes.filter((mode) => mode.players.includes(count)).map(
    (mode) => new Option(`${mode.title}`, mode.name, mode.name === chosen, mode.name === chosen)));
}

function drawSeatFields() {
  const count = Number($("seat-count").value);
  const letters = "ABCDEFGH";
  const seats = $("seats");
  const kept = [...seats.querySelectorAll(".seat")].map((field) => [
    field.querySelector(".card").value, field.querySelector(".player").value]);
  seats.replaceChildren();
  for (let index = 0; index < count; index += 1) {
    const field = document.createElement("fieldset");
    field.className = "seat";
    field.innerHTML = `<legend>Seat ${letters[index]}</legend>
      <label>Card <input class="card" list="card-names" id="card-${letters[index]}"></label>
      <label>Played by <select class="player" id="player-${letters[index]}"></select></label>`;
    const player = field.querySelector(".player");
    for (const kind of PLAYERS) player.add(new Option(kind, kind));
    const [card, who] = kept[index] || ["Mortal", index === 0 ? "person" : "random"];
    field.querySelector(".card").value = card;
    player.value = who;
    seats.append(field);
  }
}

async function startGame(event) {
  event.preventDefault();
  say("");
  const seats = [...document.querySelectorAll("#seats .seat")].map((field) => ({
    cards: field.querySelector(".card").value.split("+").map((name) => name.trim()).filter(Boolean),
    player: field.querySelector(".player").value,
  }));
  const seed = $("seed").value === "" ? null : Number($("seed").value);
  try {
    const game = await call("POST", "/api/games", { pack: $("pack").value, mode: $("mode").value, seats, seed });
    $("setup").hidden = true;
    $("table").hidden = false;
    await show(game);
  } catch (error) {
    say(error.message);
  }
}

// ---- the game
async function show(game) {
  page.game = game;
  page.steps = [];
  page.worker = null;
  page.placing = [];
  page.offered = null;
  $("choice").hidden = true;
  if (game.person_to_move && !game.in_setup) {
    await offer();
  } else {
    draw(game.svg);
    drawOptions();
  }
  tell();
  status();
  if (game.thinking && !page.polling) page.polling = setTimeout(poll, 250);
}

async function poll() {
  page.polling = null;
  try {
    const game = await call("GET", `/api/games/${page.game.id}`);
    if (game.version !== page.game.version || game.thinking !== page.game.thinking) await show(game);
    else if (game.thinking) page.polling = setTimeout(poll, 250);
  } catch (error) {
    say(error.message);
  }
}

async function offer() {
  page.offered = await call("POST", `/api/games/${page.game.id}/options`, { steps: page.steps });
  draw(page.offered.svg);
  drawOptions();
}

function seatName(letter) {
  const seat = page.game.seats.find((one) => one.letter === letter);
  return seat ? `Seat ${letter} (${seat.cards.join(" + ")})` : `Seat ${letter}`;
}

function status() {
  const game = page.game;
  let text;
  if (game.over) text = `Seat ${game.winner} wins.`;  // (the team's first seat: its letter names the team)
  else if (game.failure) text = `The game stopped: ${game.failure}`;
  else if (game.thinking) text = `${seatName(game.to_move)} is thinking…`;
  else if (game.in_setup && game.person_to_move) {
    text = `${seatName(game.to_move)}: click ${game.place.length} free squares to place ${game.place.join(", ")}.`;
  } else if (game.person_to_move) text = `${seatName(game.to_move)} to play: click a worker, then a square.`;
  else text = `${seatName(game.to_move)} to play.`;
  $("status").textContent = text;
  $("steps").textContent = page.steps.length ? `This turn so far: ${page.steps.join("; ")}` : "";
  $("end-turn").hidden = !(page.offered && page.offered.complete && page.steps.length);
}

function tell() {
  const list = $("told");
  list.replaceChildren(...page.game.told.map((told) => {
    const item = document.createElement("li");
    item.textContent = `${told.seat}: ${told.text}`;
    for (const line of told.said) {
      const said = document.createElement("div");
      said.className = "said";
      said.textContent = line;
      item.append(said);
    }
    return item;
  }));
}

function draw(svg) {
  const board = $("board");
  board.innerHTML = svg;
  mark();
}

// The squares of the picture, read from the picture itself (a5's square gives the grid).
function grid() {
  const corner = document.querySelector("#board g.square.a5 rect");
  return { x: Number(corner.getAttribute("x")), y: Number(corner.getAttribute("y")),
           size: Number(corner.getAttribute("width")) };
}

function squareAt(event) {
  const svg = document.querySelector("#board svg");
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const at = point.matrixTransform(svg.getScreenCTM().inverse());
  const { x, y, size } = grid();
  const column = Math.floor((at.x - x) / size);
  const row = Math.floor((at.y - y) / size);
  if (column < 0 || column > 4 || row < 0 || row > 4) return null;
  return "abcde"[column] + String(5 - row);
}

function workerOn(square) {
  const found = document.querySelector(`#board g.worker.${square}`);
  if (!found) return null;
  return [...found.classList].find((name) => /^[A-H]\d+$/.test(name)) || null;
}

// Rings drawn over the picture: the squares picked for a placement, the picked worker's squares.
function mark() {
  const svg = document.querySelector("#board svg");
  if (!svg || !document.querySelector("#board g.square.a5 rect")) return;
  const { x, y, size } = grid();
  const ring = (square, kind) => {
    const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    const column = "abcde".indexOf(square[0]);
    const row = 5 - Number(square[1]);
    rect.setAttribute("x", x + column * size + 5);
    rect.setAttribute("y", y + row * size + 5);
    rect.setAttribute("width", size - 10);
    rect.setAttribute("height", size - 10);
    rect.setAttribute("class", `${kind} ring-${square}`);
    svg.append(rect);
  };
  for (const square of page.placing) ring(square, "picked");
  if (page.offered) {
    const lit = new Set(page.offered.options
      .filter((option) => option.square && (!page.worker || option.worker === page.worker))
      .map((option) => option.square));
    for (const square of lit) ring(square, "target");
    const picked = page.worker && document.querySelector(`#board g.worker.${page.worker}`);
    const on = picked && [...picked.classList].find((name) => /^[a-e][1-5]$/.test(name));
    if (on) ring(on, "picked");
  }
}

function drawOptions() {
  const box = $("options");
  box.replaceChildren();
  if (!page.offered) return;
  for (const option of page.offered.options) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "option";
    button.textContent = option.step;
    button.addEventListener("click", () => take(option.step));
    box.append(button);
  }
  for (const line of page.offered.said) {
    const said = document.createElement("div");
    said.className = "said";
    said.textContent = line;
    box.append(said);
  }
}

async function take(step) {
  say("");
  $("choice").hidden = true;
  page.steps.push(step);
  page.worker = null;
  try {
    await offer();
    if (!page.offered.options.length && page.offered.complete) {
      await playTurn();
      return;
    }
    const own = page.offered.options.filter((option) => option.worker);
    const workers = new Set(own.map((option) => option.worker));
    if (workers.size === 1) page.worker = [...workers][0];
    draw(page.offered.svg);
  } catch (error) {
    page.steps.pop();
    say(error.message);
  }
  status();
}

async function playTurn() {
  try {
    const game = await call("POST", `/api/games/${page.game.id}/play`, { turn: page.steps.join("; ") });
    await show(game);
  } catch (error) {
    say(error.message);
  }
}

async function clicked(event) {
  const game = page.game;
  if (!game || !game.person_to_move) return;
  const square = squareAt(event);
  if (!square) return;
  say("");
  if (game.in_setup) {
    place(square);
    return;
  }
  const options = page.offered ? page.offered.options : [];
  const here = workerOn(square);
  const forWorker = (worker) => options.filter((option) => option.worker === worker);
  const landing = options.filter((option) => option.square === square && (!page.worker || option.worker === page.worker));
  if (here && forWorker(here).length && !landing.length) {
    page.worker = here;
    draw(page.offered.svg);
    return;
  }
  if (landing.length === 1) {
    await take(landing[0].step);
    return;
  }
  if (landing.length > 1) {
    choose(landing);
    return;
  }
  await refuse(square);
}

function choose(options) {
  const box = $("choice");
  box.replaceChildren(...options.map((option) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = option.step;
    button.addEventListener("click", () => take(option.step));
    return button;
  }));
  box.hidden = false;
}

// A click the rules do not offer: the server says why (the rule or the power that forbids it).
async function refuse(square) {
  const options = page.offered ? page.offered.options : [];
  const mine = options.filter((option) => option.worker && (!page.worker || option.worker === page.worker));
  if (!mine.length) {
    say(`no step goes to ${square} now`);
    return;
  }
  const attempt = `${mine[0].verb} ${mine[0].worker} ${square}`;
  try {
    await call("POST", `/api/games/${page.game.id}/options`, { steps: [...page.steps, attempt] });
    say(`'${attempt}' is not offered now`);
  } catch (error) {
    say(error.message);
  }
}

async function place(square) {
  const game = page.game;
  const at = page.placing.indexOf(square);
  if (at >= 0) page.placing.splice(at, 1);
  else if (game.free.includes(square)) page.placing.push(square);
  else {
    say(`${square} is not free`);
    return;
  }
  draw(game.svg);
  if (page.placing.length < game.place.length) return;
  // (a worker is placed 'place A1 c3'; a setup token 'token abyss c3': game.place names it so)
  const turn = game.place.map((name, index) =>
    name.startsWith("token ") ? `${name} ${page.placing[index]}` : `place ${name} ${page.placing[index]}`).join("; ");
  try {
    await show(await call("POST", `/api/games/${game.id}/play`, { turn }));
  } catch (error) {
    page.placing = [];
    draw(game.svg);
    say(error.message);
  }
}

async function undo() {
  say("");
  if (page.steps.length) {
    page.steps.pop();
    page.worker = null;
    await offer();
    status();
    return;
  }
  try {
    await show(await call("POST", `/api/games/${page.game.id}/undo`));
  } catch (error) {
    say(error.message);
  }
}

// ---- watching a record
const watching = { frames: [], at: 0 };

function showFrame(at) {
  if (!watching.frames.length) return;
  watching.at = Math.max(0, Math.min(at, watching.frames.length - 1));
  const frame = watching.frames[watching.at];
  $("watch-board").innerHTML = frame.svg;
  $("watch-caption").textContent = frame.caption;
  $("watch-count").textContent = `${watching.at + 1} of ${watching.frames.length}`;
}

async function watchText() {
  say("");
  try {
    const shown = await call("POST", "/api/watch", { text: $("watch-text").value });
    watching.frames = shown.frames;
    $("watch-view").hidden = false;
    showFrame(0);
  } catch (error) {
    say(error.message);
  }
}

function openFile() {
  const file = $("watch-file").files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => { $("watch-text").value = reader.result; watchText(); };
  reader.readAsText(file);
}

// ---- writing a card
const writing = { timer: null, checked: 0, faults: [] };
page.writing = writing;

function drawLines() {
  const text = $("card-text").value;
  const count = text.split("\n").length;
  const faulty = new Set(writing.faults.map((fault) => fault.line));
  const lines = $("card-lines");
  lines.replaceChildren();
  for (let line = 1; line <= count; line += 1) {
    const number = document.createElement("div");
    number.textContent = faulty.has(line) ? `✖ ${line}` : String(line);
    number.id = `card-line-${line}`;
    if (faulty.has(line)) number.className = "faulty";
    lines.append(number);
  }
  lines.scrollTop = $("card-text").scrollTop;
}

function cardChanged() {
  drawLines();
  if (writing.timer) clearTimeout(writing.timer);
  writing.timer = setTimeout(checkCard, 300);
}

async function checkCard() {
  writing.timer = null;
  const asked = ++writing.checked;
  try {
    const checked = await call("POST", "/api/cards/check", { text: $("card-text").value, pack: $("author-pack").value });
    if (asked !== writing.checked) return;  // (a newer text was sent meanwhile)
    writing.faults = checked.faults;
    $("card-state").textContent = checked.faults.length
      ? `${checked.faults.length} fault${checked.faults.length > 1 ? "s" : ""}`
      : `${checked.name}: no faults`;
    $("card-faults").replaceChildren(...checked.faults.map((fault) => {
      const item = document.createElement("li");
      item.textContent = `line ${fault.line}, column ${fault.column}: ${fault.message}`;
      item.addEventListener("click", () => goToLine(fault.line, fault.column));
      return item;
    }));
    drawLines();
  } catch (error) {
    say(error.message);
  }
}

function goToLine(line, column) {
  const area = $("card-text");
  const lines = area.value.split("\n");
  let at = 0;
  for (let index = 0; index < line - 1 && index < lines.length; index += 1) at += lines[index].length + 1;
  area.focus();
  area.setSelectionRange(at + column - 1, at + column - 1);
}

async function playCard() {
  say("");
  try {
    const made = await call("POST", "/api/cards", { text: $("card-text").value, pack: $("author-pack").value });
    const seats = [{ cards: [made.card], player: "person" },
                   { cards: [$("card-against").value.trim() || "Mortal"], player: $("card-opponent").value }];
    const game = await call("POST", "/api/games", { pack: made.pack, seats, seed: Number($("seed").value) || 1 });
    showSection("play");
    $("setup").hidden = true;
    $("table").hidden = false;
    await show(game);
  } catch (error) {
    say(error.message);
  }
}

async function runScenario() {
  say("");
  const result = $("scenario-result");
  result.className = "";
  result.textContent = "";
  try {
    const made = await call("POST", "/api/cards", { text: $("card-text").value, pack: $("author-pack").value });
    const run = await call("POST", "/api/scenarios/run", { text: $("scenario-text").value, pack: made.pack });
    result.className = run.passed ? "passed" : "failed";
    result.textContent = run.passed ? "PASS" : `FAIL: ${run.failures.join("; ")}`;
  } catch (error) {
    result.className = "failed";
    result.textContent = error.message;
  }
}

const balancing = { run: null, timer: null };
page.balancing = balancing;

async function runBalance() {
  say("");
  $("balance-open").hidden = true;
  $("balance-report").hidden = true;
  try {
    const made = await call("POST", "/api/cards", { text: $("card-text").value, pack: $("author-pack").value });
    const against = $("balance-against").value.split(",").map((name) => name.trim()).filter(Boolean);
    balancing.run = await call("POST", "/api/balance", { pack: made.pack, card: made.card, against,
      games: Number($("balance-games").value) || 4, agent: $("balance-agent").value });
    showBalance();
  } catch (error) {
    $("balance-state").textContent = error.message;
  }
}

function showBalance() {
  const run = balancing.run;
  const bar = $("balance-progress");
  bar.hidden = false;
  bar.max = run.total;
  bar.value = run.played;
  balancing.timer = null;
  if (run.state === "running") {
    $("balance-state").textContent = `${run.card}: ${run.played} of ${run.total} games played`;
    balancing.timer = setTimeout(pollBalance, 400);
  } else if (run.state === "done") {
    $("balance-state").textContent = `${run.card}: ${run.total} games played; the report:`;
    const address = `/api/balance/${run.id}/files/${run.report}`;
    $("balance-open").href = address;
    $("balance-open").hidden = false;
    $("balance-report").src = address;
    $("balance-report").hidden = false;
  } else {
    $("balance-state").textContent = `the run failed: ${run.error}`;
  }
}

async function pollBalance() {
  try {
    balancing.run = await call("GET", `/api/balance/${balancing.run.id}`);
    showBalance();
  } catch (error) {
    $("balance-state").textContent = error.message;
  }
}

async function startWriting() {
  if ($("card-text").value) return;
  const select = $("author-pack");
  if (!select.options.length) {
    for (const pack of page.packs) select.add(new Option(pack.name, pack.name, pack.name === "bga", pack.name === "bga"));
  }
  $("card-text").value = (await call("GET", "/api/cards/template")).text;
  cardChanged();
}

function showSection(name) {
  say("");
  $("author").hidden = name !== "author";
  if (name === "author") startWriting().catch((error) => say(error.message));
  $("watch").hidden = name !== "watch";
  $("setup").hidden = name !== "play" || Boolean(page.game);
  $("table").hidden = name !== "play" || !page.game;
}

async function saveRecord() {
  try {
    const record = await call("GET", `/api/games/${page.game.id}/record`);
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([record.text], { type: "application/yaml" }));
    link.download = "game.yaml";
    link.click();
    URL.revokeObjectURL(link.href);
  } catch (error) {
    say(error.message);
  }
}

async function watchThisGame() {
  try {
    const record = await call("GET", `/api/games/${page.game.id}/record`);
    showSection("watch");
    $("watch-text").value = record.text;
    await watchText();
    showFrame(watching.frames.length - 1);
  } catch (error) {
    say(error.message);
  }
}

function newGame() {
  if (page.polling) clearTimeout(page.polling);
  page.polling = null;
  page.game = null;
  $("table").hidden = true;
  $("setup").hidden = false;
  say("");
}

window.addEventListener("DOMContentLoaded", () => {
  $("pack").addEventListener("change", fillCards);
  $("seat-count").addEventListener("change", () => { drawSeatFields(); fillModes(); });
  $("new-game").addEventListener("submit", startGame);
  $("board").addEventListener("click", clicked);
  $("end-turn").addEventListener("click", playTurn);
  $("undo").addEventListener("click", undo);
  $("new").addEventListener("click", newGame);
  $("show-play").addEventListener("click", () => showSection("play"));
  $("save-record").addEventListener("click", saveRecord);
  $("watch-this").addEventListener("click", watchThisGame);
  $("show-watch").addEventListener("click", () => showSection("watch"));
  $("show-author").addEventListener("click", () => showSection("author"));
  $("card-text").addEventListener("input", cardChanged);
  $("card-text").addEventListener("scroll", () => { $("card-lines").scrollTop = $("card-text").scrollTop; });
  $("author-pack").addEventListener("change", cardChanged);
  $("card-play").addEventListener("click", playCard);
  $("scenario-run").addEventListener("click", runScenario);
  $("balance-run").addEventListener("click", runBalance);
  $("watch-show").addEventListener("click", watchText);
  $("watch-file").addEventListener("change", openFile);
  $("watch-first").addEventListener("click", () => showFrame(0));
  $("watch-back").addEventListener("click", () => showFrame(watching.at - 1));
  $("watch-forward").addEventListener("click", () => showFrame(watching.at + 1));
  $("watch-last").addEventListener("click", () => showFrame(watching.frames.length - 1));
  document.addEventListener("keydown", (event) => {
    if ($("watch").hidden || event.target === $("watch-text")) return;
    if (event.key === "ArrowLeft") showFrame(watching.at - 1);
    if (event.key === "ArrowRight") showFrame(watching.at + 1);
  });
  loadPacks().catch((error) => say(error.message));
});
