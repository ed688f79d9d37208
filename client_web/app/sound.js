// @ts-check
// Sounds, synthesised with Web Audio (an oscillator through a gain envelope per note: no
// audio files to fetch): the countdown's ticks and its "Go!", and a game's finish, a short
// rising run when it is won, two falling notes when it is lost. Browsers refuse to start
// audio before the page has had a user gesture, so the audio context is made at the first
// pointer press or key press, and every sound asked for before that is silently skipped.
// The header's mute button (`#mute`, pressed while muted) turns them off; its state is
// kept in this browser's localStorage.

const MUTED_KEY = "patience-race.muted";

/** @type {AudioContext | null} */
let context = null;
let muted = readMuted();
/** the countdown's text last heard: a tick sounds when it changes */
let lastCount = "";

function readMuted() {
  try {
    return localStorage.getItem(MUTED_KEY) === "1";
  } catch {
    return false;
  }
}

/** @param {boolean} on */
function storeMuted(on) {
  try {
    localStorage.setItem(MUTED_KEY, on ? "1" : "0");
  } catch {
    /* this page only */
  }
}

export function isMuted() {
  return muted;
}

/** @param {boolean} on */
export function setMuted(on) {
  muted = on;
  storeMuted(on);
  showMuted();
}

function showMuted() {
  const toggle = document.getElementById("mute");
  if (!toggle) return;
  toggle.setAttribute("aria-pressed", String(muted));
  toggle.title = muted ? "Sounds are off: press to turn them on" : "Sounds are on: press to mute them";
}

// the first gesture: the one moment a browser lets a page start its audio
function unlock() {
  if (!context) {
    const Context = window.AudioContext;
    if (!Context) return;
    context = new Context();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  document.removeEventListener("pointerdown", unlock, true);
  document.removeEventListener("keydown", unlock, true);
}

document.addEventListener("pointerdown", unlock, true);
document.addEventListener("keydown", unlock, true);
document.getElementById("mute")?.addEventListener("click", () => setMuted(!muted));
showMuted();

/**
 * One note: a sine or triangle wave whose gain rises in 10 ms and dies away exponentially,
 * so that it starts and stops without a click.
 * @param {AudioContext} audio
 * @param {number} hz
 * @param {number} at seconds from now
 * @param {number} length seconds
 * @param {OscillatorType} wave
 * @param {number} loudness peak gain, 0 to 1
 */
function note(audio, hz, at, length, wave = "sine", loudness = 0.2) {
  const start = audio.currentTime + at;
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  oscillator.type = wave;
  oscillator.frequency.setValueAtTime(hz, start);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(loudness, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start(start);
  oscillator.stop(start + length + 0.02);
}

/** @type {Record<string, [number, number, number, OscillatorType?, number?][]>} each sound's notes: Hz, start, length */
const SOUNDS = {
  tick: [[880, 0, 0.08]],
  go: [[1320, 0, 0.25]],
  won: [
    [523.25, 0, 0.14],
    [659.25, 0.11, 0.14],
    [783.99, 0.22, 0.14],
    [1046.5, 0.33, 0.4],
  ],
  lost: [
    [392, 0, 0.22, "triangle", 0.25],
    [311.13, 0.2, 0.4, "triangle", 0.25],
  ],
};

/**
 * Play a sound by name, unless muted or no gesture has unlocked the audio yet. The body's
 * `data-sound` names the last sound played (what the browser tests look at).
 * @param {keyof typeof SOUNDS} name
 */
export function play(name) {
  if (muted || !context || context.state === "closed") return;
  for (const [hz, at, length, wave, loudness] of SOUNDS[name]) note(context, hz, at, length, wave, loudness);
  document.body.dataset.sound = name;
}

/**
 * The countdown's text as it is drawn ("3", "2", "1", "Go!", or "" once it is over): a
 * tick for each new number, a higher note for "Go!".
 * @param {string} text
 */
export function countdown(text) {
  if (text === lastCount) return;
  lastCount = text;
  if (text === "Go!") play("go");
  else if (text) play("tick");
}

/**
 * A game's end: `won` or `lost` (a timeout sounds as a loss; a resignation is silent).
 * @param {string} status
 */
export function finish(status) {
  if (status === "won") play("won");
  else if (status === "lost" || status === "timeout") play("lost");
}
