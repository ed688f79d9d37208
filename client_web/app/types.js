// @ts-check
// The types the browser client's modules share, for TypeScript's check of the modules
// that opt in with // @ts-check (make typecheck). JSDoc only: nothing here runs, and no
// module imports it when the page loads (`import("./types.js")` in a type is erased).

/**
 * A message of the protocol (docs/protocol.md) as decoded.
 * @typedef {import("./link.js").Message} Message
 */

/**
 * The player signed in.
 * @typedef {{ id: string, name: string }} Player
 */

/**
 * A screen main.js shows: its root element, drawn once shown; an event offered first to
 * the screen shown (true: taken); a welcome after a reconnection; stopped when replaced.
 * @typedef {object} Screen
 * @property {HTMLElement} root
 * @property {() => void} [draw]
 * @property {(message: Message) => boolean} [event]
 * @property {(welcome: Message) => void} [resumed]
 * @property {() => void} [destroy]
 */

/**
 * The application the screens belong to (main.js's `app`).
 * @typedef {object} App
 * @property {import("./link.js").Link} link
 * @property {Message[]} games the games the server offers (`welcome.games`: id, name, summary)
 * @property {Player | null} player
 * @property {Message | null} welcome the last `welcome`, its `resume` taken up as used
 * @property {{ code: string, game: string } | null} [racing] the race the player is in, its
 *   game still played, from every welcome's `resume` and as the room's screen last saw it
 *   (the home screen leads back to it; what would leave it asks first: elsewhere.js)
 * @property {Screen | null} [screen] the screen shown (null before the first)
 * @property {(id: string) => Message | undefined} game a game of the list, by id
 * @property {(text: string, tag?: string) => void} notice a notice; tag "lobby": gone at Go! (notices.js)
 * @property {(screen: Screen) => void} show
 * @property {(address: string) => void} go
 * @property {(rules: string) => void} deal a new solo game of `rules` (Play, New deal), at its address
 * @property {(unseen: number) => void} setUnseen
 * @property {(taken: Message) => void} raceChallenge
 */

export {};
