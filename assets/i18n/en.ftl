### English texts of the game: the reference every other language follows.
###
### How to edit this file: see CONTRIBUTING.md at the root of the repository. A message id is the
### game's key with dots written as dashes (`menu.new_game` is `menu-new_game`); the text after `=` is what
### players see; `{ $name }` is a value the game fills in, keep its name as it is.

app-title = Fanorona

menu-subtitle = the board game of Madagascar
menu-new_game = New game
menu-settings = Settings
menu-rules = Rules
menu-quit = Quit
menu-back = Back
menu-title_screen = Title

setup-start = Start
setup-players = Players
setup-vs_cpu = Against the CPU
setup-hot_seat = Two players, one screen
setup-cpu_vs_cpu = Watch the CPU play itself
setup-you_play = You play
setup-cpu_level = CPU level
setup-board = Board
setup-relays = Relays
setup-relay_default = Standard (no point twice)
setup-relay_lines = Lines (no segment twice)
setup-options = Options
setup-first_turn_no_relay = First turn without relay
setup-single_first_capture = Single first capture
setup-black_starts = Black starts

side-white = White
side-black = Black
side-white_initial = W
side-black_initial = B

level-beginner = Beginner
level-novice = Novice
level-intermediate = Intermediate
level-advanced = Advanced
level-master = Master

variant-tsivy = Fanoron-Tsivy (9 × 5)
variant-dimy = Fanoron-Dimy (5 × 5)

rules-title = How to play

settings-language = Language
settings-animation_speed = Animation speed

speed-off = Off
speed-fast = Fast
speed-normal = Normal
speed-slow = Slow

sound-title = Sound
sound-master = Master
sound-effects = Effects
sound-music = Music
sound-mute = Mute

result-you_win = You win!
result-cpu_wins = The CPU wins
result-you_lose = You lose
result-white_wins = White wins
result-black_wins = Black wins
result-draw = Draw

outcome-with_reason = { $result }: { $reason }

reason-white_no_pieces = White has no pieces left
reason-black_no_pieces = Black has no pieces left
reason-white_no_moves = White has no legal move
reason-black_no_moves = Black has no legal move
reason-white_resigned = White resigned
reason-black_resigned = Black resigned
reason-draw_repetition = draw by repetition
reason-no_capture = too many turns without a capture
reason-draw_agreement = draw by agreement

over-after_turns = after { $turns ->
        [one] { $turns } turn
       *[other] { $turns } turns
    }
over-change_setup = Change setup
over-take_back = Take back
over-kept = Kept in your game records.

pause-title = Paused
pause-resume = Resume

hud-you = { $side } (you)
hud-cpu = { $side } (CPU, { $level })
hud-paused = Paused
hud-thinking_depth = { $side } is thinking… depth { $depth }, { $seconds } s
hud-thinking = { $side } is thinking… { $seconds } s
hud-relay = { $side }: capture again with the same piece, or End turn
hud-to_move = { $side } to move
hud-choose_direction = — approach or withdrawal? Click a piece of the line to capture.
hud-counts = pieces: { $pieces }   captured: { $captured }
hud-end_turn = End turn (Enter)
hud-undo = Undo (U)
hud-redo = Redo
hud-hint = Hint
hud-offer_draw = Offer draw
hud-resign = Resign
hud-resign_confirm = Yes, resign
hud-resign_keep = Keep playing
hud-hint_pending = Looking for a good turn…
hud-hint_answer = Hint: { $turn }  ({ $score })
hud-offers_draw = { $side } offers a draw.
hud-accept = Accept
hud-decline = Decline
hud-cpu_considers = The CPU ({ $level }) considers your offer…
hud-animation = Animation:
hud-menu = Menu (Esc)
hud-moves = Moves

score-win_in = win in { $turns }
score-loss_in = loss in { $turns }

number-decimal_separator = .

capture-title = Capture which way?
capture-explain = This step can capture either line. Click a piece of the line, or:
capture-approach = Approach ({ $count })
capture-withdrawal = Withdrawal ({ $count })
capture-cancel = Cancel

note-not_joined = { $from } and { $to } are not joined by a line
note-not_allowed = that move is not allowed
note-click_line = click a piece of the line you want to capture
note-relay_only = a relay is in progress: only the piece on { $point } may move
note-compulsory = capturing is compulsory: move one of the marked pieces
note-nowhere = this piece has nowhere to go

illegal-game_over = the game is over: the side to move has no legal step
illegal-off_board = { $point } is not on this board
illegal-not_your_piece = there is no piece of the side to move on { $point }
illegal-not_joined = the two points are not joined by a line
illegal-occupied = { $point } is occupied
illegal-capture_compulsory = a capture is available, so capturing is compulsory
illegal-nothing_to_capture = there is nothing to capture that way
illegal-vela_no_capture = the vela winner may not capture yet
illegal-same_direction = a relay may not go in the same direction twice in a row
illegal-revisited = the piece already stood on { $point } this turn
illegal-segment_reused = that line segment was already travelled this turn
illegal-relay_must_capture = every step of a relay must capture
illegal-no_relay = there is no relay to stop

## The rules and help screen (src/help.rs).
help-board-title = The board and the aim
help-board-body = Fanorona is played on 45 points (9 × 5) joined by lines. Every point is joined to its neighbours across and up and down; the strong points, marked with a ring, are joined diagonally too. Pieces stand on the points and move along the lines. Each player starts with 22 pieces: White fills the two nearest rows, Black the two farthest, and the middle row alternates, leaving only the centre empty. White moves first. The aim: capture every enemy piece, or leave your opponent without a legal move.
help-paika-title = Moving: paika
help-paika-body = On your turn, move one of your pieces one step along a line to an empty neighbouring point. A move that captures nothing is called paika, and it is allowed only when none of your pieces can capture anything: capturing is compulsory.
help-approach-title = Capture by approach
help-approach-body = Step towards an enemy piece so that your piece stops right in front of it, on the line of the step. That piece is captured, together with every enemy piece directly behind it on the line, up to the first empty point, one of your own pieces or the edge of the board.
help-withdrawal-title = Capture by withdrawal
help-withdrawal-body = Step directly away from an enemy piece that stands right next to yours, along the line of the step. That piece is captured, together with every enemy piece directly behind it on the line, up to the first empty point, one of your own pieces or the edge. Diagonal lines capture just like the others.
help-choice-title = Approach or withdrawal?
help-choice-body = Sometimes one step could capture both ways: by approach in front and by withdrawal behind. You must choose one of the two lines; you never take both. In the game, click a piece of the line you want to take, or pick Approach or Withdrawal in the window that appears.
help-relay-title = Relay captures (rafle)
help-relay-body = After a capture, the same piece may capture again, and again, as long as it can; each further step must capture too. The piece may not move in the same direction twice in a row, and may not come back to a point it has already stood on during this turn (its starting point included). You may stop whenever you like, even when another capture is possible.
help-end-title = The end of the game
help-end-body = A player who has no pieces left, or no legal move on their turn, loses. The game is drawn when the players agree to it (Offer draw), when the same position occurs for the third time with the same player to move, or after a set number of turns in a row without a capture (100 by default).
help-variants-title = Variants and options
help-variants-dimy = Fanoron-Dimy: the same rules on a small 5 × 5 board, 12 pieces each; the middle row reads black, white, empty, black, white.
help-variants-vela = Vela, the handicap game played as a rematch: the loser of the previous game moves first and captures only one piece per turn (the enemy piece next to the line of movement, no relay); the previous winner may not capture at all (paika only) until seventeen of their pieces have been taken, and then the normal rules apply. Whoever loses a vela game plays vela again; winning it restores play on equal terms.
help-variants-options = Options for a new game: Black may start instead of White; relays may follow the "lines" rule (each step changes direction and never travels along a line segment already used this turn) instead of the standard rule; the first turn of the game may end after its first capture; and each player's first capture may be limited to a single step.
help-controls-title = Controls
help-controls-mouse = Mouse or touch: click a piece, then one of the highlighted points; red points capture. When a step could capture either way, click a piece of the line you want to take, or choose in the window that appears. During a relay, End turn (or Enter or Space) stops capturing.
help-controls-keys = U undoes. Escape cancels a selection or, with nothing selected, pauses the game.
help-controls-keyboard = Keyboard play: the arrow keys move the cursor, Enter selects and confirms, Backspace or Escape cancels.

persist-settings_doc = Your settings
persist-stats_doc = Your statistics
persist-game_doc = Your saved game
persist-moved_aside = { $what } could not be used: { $error }. The file was kept as "{ $file }" and the game starts normally.
persist-unreadable = { $what } could not be read: { $error }. It was left untouched.
persist-save_failed = { $what } could not be saved: { $error }.
persist-notice_title = Note
persist-ok = OK
persist-continue = Continue game

settings-theme = Board
settings-keep_games = Keep every finished game in the game records
settings-data_dir = Saved in: { $place }
settings-tablebase_ready = Endgame table ready: the strong levels play perfectly with up to { $pieces } pieces.
settings-tablebase_building = Endgame table: building the { $next }-piece table in the background…
settings-tablebase_growing = Endgame table: perfect play up to { $pieces } pieces now; building the { $next }-piece table in the background…
settings-seven_offer = Perfect play with seven pieces: build the larger endgame tables on this computer (about 10 minutes of its idle cores, 1.3 GB on disk, 2.3 GB of memory while building).
settings-seven_build = Build the seven-piece tables
settings-seven_resume = Resume building ({ $done } of { $steps } steps done)
settings-seven_six = tables up to { $pieces } pieces
settings-seven_pair = { $a } pieces against { $b }
settings-seven_building = Building the seven-piece tables: step { $step } of { $steps }, { $material }; { $minutes } min so far…
settings-seven_stop = Stop (what is built is kept)
settings-seven_stopping = Stopping the seven-piece build…
settings-seven_stopped = Seven-piece build stopped; what it built is kept.
settings-seven_failed = The seven-piece build failed: { $error }

theme-wood = Wood
theme-night = Night
theme-sand = Sand

stats-button = Statistics
stats-title = Statistics
stats-played = Games played
stats-finished = Games finished
stats-opponent = Opponent
stats-wins = Won
stats-losses = Lost
stats-draws = Drawn
stats-vs_level = CPU: { $level }
stats-hot_seat = Two players (White / Black wins)
stats-longest_relay = Longest relay: { $captures ->
        [one] { $captures } capture
       *[other] { $captures } captures
    } in one turn
stats-most_pieces = Most pieces in one turn: { $pieces }
stats-none = No games yet.
stats-reset = Reset statistics
stats-reset_confirm = Erase all statistics? This cannot be undone.
stats-yes_reset = Yes, erase
stats-cancel = Cancel

vela-match = Vela match (the loser may claim a handicap game)
vela-claim = Vela: { $side } claims the handicap game
vela-hud = Vela: { $side } may not capture until { $threshold } of its pieces are taken ({ $taken } / { $threshold })
vela-over = The vela phase is over: normal rules.
vela-again = Vela again: { $side } claims another handicap game

keys-title = Keyboard
keys-board = Keys: arrows move · Enter/Space select or play · E end the relay · Backspace cancel · U undo · Esc pause
keys-choice = Keys: A or 1 approach · W or 2 withdrawal · Backspace cancel
keys-help = The arrow keys (or H, J, K, L) move a ring over the points. Enter or Space on one of your pieces selects it; on a highlighted point it plays the step. When a step can capture both ways, press A (or 1) for approach or W (or 2) for withdrawal. E, or Enter on the relaying piece, ends a relay. Backspace or Escape cancels the selection; Escape with nothing selected pauses. U takes back a move.

records-title = Game records
records-save = Save record
records-copy = Copy record
records-saved = Record saved: { $place }
records-save_failed = The record could not be saved: { $error }.
records-downloaded = Downloaded.
records-copied = Copied to the clipboard.
records-copy_failed = The clipboard could not be reached.
records-none = No saved records yet.
records-open = Open
records-unreadable = (unreadable)
records-in_progress = unfinished
records-summary = { $white } vs { $black } · { $result } · { $turns ->
        [one] { $turns } turn
       *[other] { $turns } turns
    }
records-open_file = Open file…
records-waiting_file = Waiting for the file…
records-path = Record file:
records-load = Load
records-paste = Or paste a record here:
records-load_pasted = Load pasted record
records-file_error = Cannot read { $file }: { $error }
records-invalid = This record cannot be loaded: { $error }
records-players = White: { $white }  ·  Black: { $black }
records-start_position = start position
records-play_from_here = Play from here
records-keys = Arrow keys: turn by turn · Home / End: start and end · Escape: back

storage-io = it could not be read or written ({ $error })
storage-malformed = it is damaged or was edited badly ({ $error })
storage-version = it is from another version of the game (format { $found }, this game reads { $expected })

## Lessons: the guided first game.
lessons-button = Learn to play
lessons-offer-title = New to Fanorona?
lessons-offer-text = Eight short lessons teach the rules on the board, then you play a first game on the small board.
lessons-offer-yes = Start the lessons
lessons-offer-no = Not now
lessons-progress = Lesson { $n } of { $total }
lessons-previous = Previous
lessons-next = Next
lessons-retry = Try again
lessons-close = Back to the title
lessons-right = Well done!
lessons-shown = The arrows show a turn that does it. Try again, or go on.
lessons-refused = Not allowed: { $reason }
lessons-paika-title = Moving a piece (paika)
lessons-paika-text = You play White. When you cannot capture, you move one piece one step along a line to an empty point next to it: a paika move. Click your piece, then a point next to it.
lessons-approach-title = Capture by approach
lessons-approach-text = Move a piece towards an enemy piece so that it lands just before it, on the same line: that piece is captured, and every enemy piece right behind it on the line too. Capture the two black pieces.
lessons-withdrawal-title = Capture by withdrawal
lessons-withdrawal-text = Move a piece straight away from an enemy piece next to it: that piece and the enemy pieces behind it on the line are captured. Capture by moving away.
lessons-choice-title = Approach or withdrawal?
lessons-choice-text = Here one step can capture either way: by approach the piece in front, by withdrawal the line behind. You must choose one. Take the most pieces.
lessons-compulsory-title = Capturing is compulsory
lessons-compulsory-text = If any of your pieces can capture, you must capture: a paika move is not allowed. Try a paika move to see, then capture.
lessons-relay-title = Relay captures
lessons-relay-text = After a capture, the same piece may capture again, and again. Each further step must capture. Capture all four black pieces in one turn.
lessons-limits-title = The limits of a relay
lessons-limits-text = In a relay the piece may not move twice in a row in the same direction, and may not come back to a point it stood on this turn. Take all three black pieces.
lessons-stop-title = Ending a relay
lessons-stop-text = You may stop a relay whenever you like, for instance to keep your piece out of danger. Capture one piece, then press End turn.
lessons-final-title = Your first game
lessons-final-text = You know the rules. Play a game on the small board (5 × 5) against the gentlest CPU. You can always come back to the lessons from the title.
lessons-final-play = Play against Beginner
lessons-wrong-paika = That was not a paika move.
lessons-wrong-approach = That capture was not by approach: move towards the enemy piece.
lessons-wrong-withdrawal = That capture was not by withdrawal: move away from the enemy piece.
lessons-wrong-capture = That turn captured nothing.
lessons-wrong-more = Another choice takes more pieces.
lessons-wrong-most = Good relay, but another path takes more pieces.
lessons-wrong-stop = The relay went on: this time, stop after the first capture with End turn.

## The analysis board.
analysis-button = Analysis board
analysis-title = Analysis board
analysis-not_a_game = Not a game: nothing here counts in the statistics or is saved as a game.
analysis-explore = Explore
analysis-edit = Set up
analysis-edit_help = Click a point to put the chosen piece there; click it again to take it away.
analysis-brush_white = White
analysis-brush_black = Black
analysis-brush_erase = Erase
analysis-to_move = To move:
analysis-clear = Empty board
analysis-too_many = A side cannot have more pieces than it starts with.
analysis-lines = Lines:
analysis-thinking = The engine is thinking…
analysis-white_view = Scores are from White's side: + is good for White, - for Black.
analysis-line = { $k }. { $score } (depth { $depth })  { $pv }
analysis-root = Start
analysis-tried = Turns tried from here:
analysis-fen = Position (FEN)
analysis-load_fen = Load
analysis-copy_fen = Copy

## Game review.
review-button = Review
review-title = Game review
review-progress = Analysing turn { $done } of { $total }
review-waiting = This turn is not analysed yet.
review-end = The end of the game.
review-turn = { $n }. { $turn }: { $class }
review-better = Better: { $turn } (this turn lost { $loss } pieces)
review-summary = { $side }: accuracy { $accuracy } %, { $inaccuracies ->
        [one] { $inaccuracies } inaccuracy
       *[other] { $inaccuracies } inaccuracies
    }, { $mistakes ->
        [one] { $mistakes } mistake
       *[other] { $mistakes } mistakes
    }, { $blunders ->
        [one] { $blunders } blunder
       *[other] { $blunders } blunders
    }
review-play_on = Play on from here against the CPU
review-class_forced = forced
review-class_best = best
review-class_good = good
review-class_inaccuracy = inaccuracy
review-class_mistake = mistake
review-class_blunder = blunder
review-note_missed_relay = The better turn captured { $pieces } more { $pieces ->
    [one] piece
   *[other] pieces
}.
review-note_allowed_capture = This turn let the opponent capture { $pieces } { $pieces ->
    [one] piece
   *[other] pieces
}.
review-note_missed_win = This turn let a won game slip.
review-note_allows_loss = After this turn the opponent can force a win.

## Puzzles.
puzzles-button = Puzzles
puzzles-rating = Your puzzle rating: { $rating } ({ $solved } solved of { $tried })
puzzles-none = No puzzles are available.
puzzles-to_move = { $side } to play. Puzzle rating { $rating }.
puzzles-kind_win = Win in { $n } turns
puzzles-kind_relay = Find the biggest relay
puzzles-kind_save = Save your pieces
puzzles-kind_choice = Approach or withdrawal?
puzzles-right = Right! The opponent answers…
puzzles-solved = Solved!
puzzles-shown = Here is the solution.
puzzles-show_solution = Show the solution
puzzles-next = Next puzzle
puzzles-miss_illegal = That turn is not possible here.
puzzles-miss_fewer = That took { $took }, but { $most } could be taken.
puzzles-miss_loses = After that the opponent can take { $pieces } { $pieces ->
    [one] piece
   *[other] pieces
}.
puzzles-miss_kind = The right step, but the other way of capturing.
puzzles-miss_not_best = A legal turn, but not the best one here.

## Fanoron-Telo.
telo-button = Fanoron-Telo (3 × 3)
telo-title = Fanoron-Telo
telo-rules = Three pieces each: place them one by one, then move them one step along a line. Three in a row wins.
telo-you_white = You: White
telo-you_black = You: Black
telo-two_players = Two players
telo-gentle = Gentle CPU
telo-perfect = Perfect CPU
telo-to_place = { $side } places a piece.
telo-to_move = { $side } moves a piece.
telo-wins = { $side } wins!
telo-draw = Draw: the same position came back three times.

## Online play
online-button = Play a friend online
online-title = Play online
online-server = Server
online-name = Your name
online-colour = Your colour
online-random = Random
online-create = Create a game
online-quick = Quick match
online-code = Invite code
online-join = Join
online-watch_code = Spectator code
online-watch = Watch
online-bad_code = That is not a code: paste the 32 letters and digits, or the whole link.
online-connecting = Connecting to { $server }…
online-retrying = Cannot reach { $server }; trying again…
online-queued = Waiting for an opponent…
online-invite_intro = Give your friend this code, or the link:
online-copy_code = Copy code
online-copy_link = Copy link
online-spectate_intro = Others can watch with this code:
online-waiting_friend = Waiting for your friend to join…
online-joining = Joining the game…
online-cancel = Cancel
online-watching = Online: watching
online-no_name = no name
online-seat_free = { $side }: nobody yet
online-seat_here = { $side }: { $name }, connected
online-seat_away = { $side }: { $name } is disconnected; waiting for them to come back…
online-seat_unknown = { $side }: { $name }; unknown until we are back online
online-reconnecting = Connection lost; reconnecting…
online-server_hint = One address, or several separated by commas or spaces: when one does not answer, the game tries the next.
online-connected_to = Connected to { $server }
online-retrying_next = Connection failed; trying { $server } next…
online-reconnecting_to = Connection lost; reconnecting to { $server }…
online-draw_offered = You offered a draw; waiting for the answer.
online-takeback_asked = { $side } asks to take back their last turn.
online-takeback_waiting = You asked to take back your last turn; waiting for the answer.
online-draw_declined = Your draw offer was declined.
online-takeback_declined = Your takeback request was declined.
online-record_saved = The game's record was saved: { $place }
online-again = Play online again
online-error-garbled = The server sent a message the game cannot read.
online-error-version = The server runs another version of the game: update the game to play there.
online-error-unknown_game = No game has this code.
online-error-seat_taken = Someone already took this seat.
online-error-not_your_turn = It is your opponent's turn.
online-error-illegal_turn = The server refused that turn: the board shows the game as the server has it.
online-error-game_over = The game is over.
online-error-nothing_to_answer = There is nothing to answer.
online-error-no_opponent = Your friend has not joined yet.
online-error-busy = The server is busy: try again in a moment.
online-error-invalid = The server refused a name or code: check it.
online-error-refused = The server refused the request.
hud-remote = { $side } (online)
stats-online = Online games
stats-lessons_done = Lessons done: { $done } of { $total }
