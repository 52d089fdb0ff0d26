### Textes français du jeu.
###
### How to edit this file: see CONTRIBUTING.md at the root of the repository. A message id is the
### game's key with dots written as dashes (`menu.new_game` is `menu-new_game`); the text after `=` is what
### players see; `{ $name }` is a value the game fills in, keep its name as it is.

app-title = Fanorona

menu-subtitle = le jeu de plateau de Madagascar
menu-new_game = Nouvelle partie
menu-settings = Réglages
menu-rules = Règles
menu-quit = Quitter
menu-back = Retour
menu-title_screen = Accueil

setup-start = Commencer
setup-players = Joueurs
setup-vs_cpu = Contre l'ordinateur
setup-hot_seat = Deux joueurs, un seul écran
setup-cpu_vs_cpu = L'ordinateur contre lui-même
setup-you_play = Vous jouez
setup-cpu_level = Niveau de l'ordinateur
setup-board = Plateau
setup-relays = Rafles
setup-relay_default = Standard (jamais deux fois le même point)
setup-relay_lines = Lignes (jamais deux fois le même segment)
setup-options = Options
setup-first_turn_no_relay = Pas de rafle au premier tour
setup-single_first_capture = Première prise sans rafle
setup-black_starts = Les Noirs commencent

side-white = Blancs
side-black = Noirs
side-white_initial = B
side-black_initial = N

level-beginner = Débutant
level-novice = Novice
level-intermediate = Intermédiaire
level-advanced = Avancé
level-master = Maître

variant-tsivy = Fanoron-Tsivy (9 × 5)
variant-dimy = Fanoron-Dimy (5 × 5)

rules-title = Comment jouer

settings-language = Langue
settings-animation_speed = Vitesse des animations

speed-off = Désactivées
speed-fast = Rapides
speed-normal = Normales
speed-slow = Lentes

sound-title = Son
sound-master = Général
sound-effects = Effets
sound-music = Musique
sound-mute = Couper le son

result-you_win = Vous avez gagné !
result-cpu_wins = L'ordinateur a gagné
result-you_lose = Vous avez perdu
result-white_wins = Les Blancs gagnent
result-black_wins = Les Noirs gagnent
result-draw = Partie nulle

outcome-with_reason = { $result } : { $reason }

reason-white_no_pieces = les Blancs n'ont plus de pièces
reason-black_no_pieces = les Noirs n'ont plus de pièces
reason-white_no_moves = les Blancs n'ont plus aucun déplacement permis
reason-black_no_moves = les Noirs n'ont plus aucun déplacement permis
reason-white_resigned = les Blancs ont abandonné
reason-black_resigned = les Noirs ont abandonné
reason-draw_repetition = nulle par répétition
reason-no_capture = trop de tours sans prise
reason-draw_agreement = nulle par accord mutuel

over-after_turns = après { $turns ->
        [one] { $turns } tour
       *[other] { $turns } tours
    }
over-change_setup = Modifier la partie
over-take_back = Reprendre le coup
over-kept = Gardée dans vos parties enregistrées.

pause-title = Pause
pause-resume = Reprendre

hud-you = { $side } (vous)
hud-cpu = { $side } (ordinateur, { $level })
hud-paused = En pause
hud-thinking_depth = { $side } : réflexion… profondeur { $depth }, { $seconds } s
hud-thinking = { $side } : réflexion… { $seconds } s
hud-relay = { $side } : prenez encore avec la même pièce, ou Fin du tour
hud-to_move = Aux { $side } de jouer
hud-choose_direction = — approche ou éloignement ? Cliquez sur une pièce de la ligne à prendre.
hud-counts = pièces : { $pieces }   prises : { $captured }
hud-end_turn = Fin du tour (Entrée)
hud-undo = Annuler (U)
hud-redo = Rétablir
hud-hint = Indice
hud-offer_draw = Proposer la nulle
hud-resign = Abandonner
hud-resign_confirm = Oui, abandonner
hud-resign_keep = Continuer
hud-hint_pending = Recherche d'un bon coup…
hud-hint_answer = Indice : { $turn }  ({ $score })
hud-offers_draw = Les { $side } proposent la nulle.
hud-accept = Accepter
hud-decline = Refuser
hud-cpu_considers = L'ordinateur ({ $level }) étudie votre proposition…
hud-animation = Animations :
hud-menu = Menu (Échap)
hud-moves = Coups

score-win_in = gain en { $turns }
score-loss_in = perte en { $turns }

number-decimal_separator = ,

capture-title = Prendre dans quel sens ?
capture-explain = Ce déplacement peut prendre l'une ou l'autre ligne. Cliquez sur une pièce de la ligne, ou :
capture-approach = Approche ({ $count })
capture-withdrawal = Éloignement ({ $count })
capture-cancel = Annuler

note-not_joined = { $from } et { $to } ne sont pas reliés par une ligne
note-not_allowed = ce déplacement n'est pas permis
note-click_line = cliquez sur une pièce de la ligne à prendre
note-relay_only = une rafle est en cours : seule la pièce en { $point } peut bouger
note-compulsory = la prise est obligatoire : déplacez une des pièces signalées
note-nowhere = cette pièce ne peut aller nulle part

illegal-game_over = la partie est terminée : le camp au trait n'a aucun déplacement permis
illegal-off_board = { $point } n'est pas sur ce plateau
illegal-not_your_piece = il n'y a pas de pièce du camp au trait en { $point }
illegal-not_joined = les deux points ne sont pas reliés par une ligne
illegal-occupied = { $point } est occupé
illegal-capture_compulsory = une prise est possible, la prise est donc obligatoire
illegal-nothing_to_capture = il n'y a rien à prendre dans ce sens
illegal-vela_no_capture = le vainqueur de la vela ne peut pas encore prendre
illegal-same_direction = une rafle ne peut pas suivre deux fois de suite la même direction
illegal-revisited = la pièce est déjà passée par { $point } pendant ce tour
illegal-segment_reused = ce segment a déjà été parcouru pendant ce tour
illegal-relay_must_capture = chaque déplacement d'une rafle doit faire une prise
illegal-no_relay = il n'y a pas de rafle à arrêter

## L'écran des règles et de l'aide (src/help.rs).
help-board-title = Le plateau et le but du jeu
help-board-body = Le fanorona se joue sur 45 points (9 × 5) reliés par des lignes. Chaque point est relié à ses voisins à l'horizontale et à la verticale ; les points forts, marqués d'un anneau, le sont aussi en diagonale. Les pions se placent sur les points et se déplacent le long des lignes. Chaque joueur commence avec 22 pions : les Blancs occupent les deux rangées les plus proches, les Noirs les deux plus éloignées, et la rangée du milieu alterne les couleurs ; seul le centre reste vide. Les Blancs commencent. Le but : prendre tous les pions adverses, ou laisser l'adversaire sans coup possible.
help-paika-title = Se déplacer : le paika
help-paika-body = À votre tour, avancez un de vos pions d'un pas le long d'une ligne, vers un point voisin libre. Un coup qui ne prend rien s'appelle un paika ; il n'est permis que si aucun de vos pions ne peut prendre : la prise est obligatoire.
help-approach-title = Prise par approche
help-approach-body = Avancez vers un pion adverse de façon à vous arrêter juste devant lui, sur la ligne de votre déplacement. Ce pion est pris, ainsi que tous les pions adverses qui le suivent sur cette ligne, jusqu'au premier point vide, à l'un de vos pions ou au bord du plateau.
help-withdrawal-title = Prise par éloignement (retrait)
help-withdrawal-body = Éloignez-vous d'un pion adverse placé juste à côté du vôtre, en reculant dans l'axe de la ligne. Ce pion est pris, ainsi que tous les pions adverses qui le suivent sur la ligne, jusqu'au premier point vide, à l'un de vos pions ou au bord. Les diagonales prennent comme les autres lignes.
help-choice-title = Approche ou éloignement ?
help-choice-body = Il arrive qu'un même pas puisse prendre des deux façons : par approche devant et par éloignement derrière. Vous devez alors choisir une des deux lignes ; on ne prend jamais les deux. Dans le jeu, cliquez sur un pion de la ligne à prendre, ou choisissez Approche ou Éloignement dans la fenêtre qui s'ouvre.
help-relay-title = Prises en série (rafle)
help-relay-body = Après une prise, le même pion peut prendre encore, et encore, tant qu'il le peut ; chaque nouveau pas doit lui aussi prendre. Le pion ne peut pas aller deux fois de suite dans la même direction, ni revenir sur un point où il s'est déjà trouvé pendant ce tour (son point de départ compris). Vous pouvez vous arrêter quand vous voulez, même si une autre prise est possible.
help-end-title = La fin de la partie
help-end-body = Le joueur qui n'a plus de pions, ou plus aucun coup possible à son tour, a perdu. La partie est nulle si les joueurs en conviennent (Proposer la nulle), si la même position revient pour la troisième fois avec le même joueur au trait, ou après un nombre fixé de tours de suite sans prise (100 par défaut).
help-variants-title = Variantes et options
help-variants-dimy = Fanoron-Dimy : les mêmes règles sur un petit plateau de 5 × 5, avec 12 pions chacun ; la rangée du milieu se lit noir, blanc, vide, noir, blanc.
help-variants-vela = Vela, la partie à handicap jouée en revanche : le perdant de la partie précédente joue en premier et ne prend qu'un pion par tour (le pion adverse voisin de la ligne du déplacement, sans rafle) ; le gagnant précédent ne peut pas prendre du tout (paika seulement) tant que dix-sept de ses pions n'ont pas été pris, puis les règles normales s'appliquent. Qui perd une partie vela rejoue vela ; la gagner rétablit l'égalité.
help-variants-options = Options d'une nouvelle partie : les Noirs peuvent commencer à la place des Blancs ; la rafle peut suivre la règle des « lignes » (chaque pas change de direction et ne reparcourt jamais un segment déjà utilisé pendant le tour) au lieu de la règle standard ; le premier tour de la partie peut s'arrêter après sa première prise ; et la première prise de chaque joueur peut être limitée à un seul pas.
help-controls-title = Commandes
help-controls-mouse = Souris ou écran tactile : cliquez sur un pion, puis sur un des points en surbrillance ; les points rouges prennent. Quand un pas peut prendre des deux façons, cliquez sur un pion de la ligne à prendre, ou choisissez dans la fenêtre qui s'ouvre. Pendant une rafle, Fin du tour (ou Entrée, ou Espace) arrête les prises.
help-controls-keys = U annule le dernier coup. Échap annule une sélection ou, si rien n'est sélectionné, met la partie en pause.
help-controls-keyboard = Jeu au clavier : les flèches déplacent le curseur, Entrée sélectionne et valide, Retour arrière ou Échap annule.

persist-settings_doc = vos réglages
persist-stats_doc = vos statistiques
persist-game_doc = votre partie enregistrée
persist-moved_aside = Impossible d'utiliser { $what } : { $error }. Le fichier a été conservé sous le nom « { $file } » et le jeu démarre normalement.
persist-unreadable = Impossible de lire { $what } : { $error }. Rien n'y a été changé.
persist-save_failed = Impossible d'enregistrer { $what } : { $error }.
persist-notice_title = À savoir
persist-ok = D'accord
persist-continue = Reprendre la partie

settings-theme = Plateau
settings-keep_games = Garder chaque partie terminée dans les parties enregistrées
settings-data_dir = Enregistré dans : { $place }
settings-tablebase_ready = Table de finales prête : les niveaux forts jouent parfaitement jusqu'à { $pieces } pièces.
settings-tablebase_building = Table de finales : construction de la table à { $next } pièces en arrière-plan…
settings-tablebase_growing = Table de finales : jeu parfait jusqu'à { $pieces } pièces pour l'instant ; construction de la table à { $next } pièces en arrière-plan…
settings-seven_offer = Jeu parfait à sept pièces : construire les grandes tables de finales sur cet ordinateur (environ 10 minutes de ses cœurs inoccupés, 1,3 Go sur le disque, 2,3 Go de mémoire pendant la construction).
settings-seven_build = Construire les tables à sept pièces
settings-seven_resume = Reprendre la construction ({ $done } étapes sur { $steps } faites)
settings-seven_six = tables jusqu'à { $pieces } pièces
settings-seven_pair = { $a } pièces contre { $b }
settings-seven_building = Construction des tables à sept pièces : étape { $step } sur { $steps }, { $material } ; { $minutes } min jusqu'ici…
settings-seven_stop = Arrêter (ce qui est construit est gardé)
settings-seven_stopping = Arrêt de la construction à sept pièces…
settings-seven_stopped = Construction à sept pièces arrêtée ; ce qu'elle a construit est gardé.
settings-seven_failed = La construction à sept pièces a échoué : { $error }

theme-wood = Bois
theme-night = Nuit
theme-sand = Sable

stats-button = Statistiques
stats-title = Statistiques
stats-played = Parties jouées
stats-finished = Parties terminées
stats-opponent = Adversaire
stats-wins = Gagnées
stats-losses = Perdues
stats-draws = Nulles
stats-vs_level = Ordinateur : { $level }
stats-hot_seat = Deux joueurs (victoires Blancs / Noirs)
stats-longest_relay = Plus longue rafle : { $captures ->
        [one] { $captures } prise
       *[other] { $captures } prises
    } en un tour
stats-most_pieces = Le plus de pièces en un tour : { $pieces }
stats-none = Aucune partie pour l'instant.
stats-reset = Remettre à zéro
stats-reset_confirm = Effacer toutes les statistiques ? C'est définitif.
stats-yes_reset = Oui, effacer
stats-cancel = Annuler

vela-match = Match avec vela (le perdant peut réclamer une partie à handicap)
vela-claim = Vela : { $side } réclame la partie à handicap
vela-hud = Vela : { $side } ne peut pas prendre avant que { $threshold } de ses pièces soient prises ({ $taken } / { $threshold })
vela-over = La phase de vela est terminée : règles normales.
vela-again = Encore un vela : { $side } réclame une nouvelle partie à handicap

keys-title = Clavier
keys-board = Touches : flèches pour se déplacer · Entrée/Espace pour choisir ou jouer · E pour finir la rafle · Retour arrière pour annuler · U pour reprendre · Échap pour la pause
keys-choice = Touches : A ou 1 pour l'approche · W ou 2 pour l'éloignement · Retour arrière pour annuler
keys-help = Les flèches (ou H, J, K, L) déplacent un anneau sur les points. Entrée ou Espace sur une de vos pièces la sélectionne ; sur un point en surbrillance, joue le pas. Quand un pas peut prendre dans les deux sens, appuyez sur A (ou 1) pour l'approche ou sur W (ou 2) pour l'éloignement. E, ou Entrée sur la pièce qui enchaîne, termine la rafle. Retour arrière ou Échap annule la sélection ; Échap sans sélection met le jeu en pause. U reprend un coup.

records-title = Parties enregistrées
records-save = Enregistrer la partie
records-copy = Copier la partie
records-saved = Partie enregistrée : { $place }
records-save_failed = La partie n'a pas pu être enregistrée : { $error }.
records-downloaded = Téléchargée.
records-copied = Copiée dans le presse-papiers.
records-copy_failed = Le presse-papiers est inaccessible.
records-none = Aucune partie enregistrée pour l'instant.
records-open = Ouvrir
records-unreadable = (illisible)
records-in_progress = inachevée
records-summary = { $white } contre { $black } · { $result } · { $turns ->
        [one] { $turns } tour
       *[other] { $turns } tours
    }
records-open_file = Ouvrir un fichier…
records-waiting_file = En attente du fichier…
records-path = Fichier de la partie :
records-load = Charger
records-paste = Ou collez une partie ici :
records-load_pasted = Charger la partie collée
records-file_error = Impossible de lire { $file } : { $error }
records-invalid = Cette partie ne peut pas être chargée : { $error }
records-players = Blancs : { $white }  ·  Noirs : { $black }
records-start_position = position de départ
records-play_from_here = Jouer à partir d'ici
records-keys = Flèches : tour par tour · Début / Fin : départ et fin · Échap : retour

storage-io = lecture ou écriture impossible ({ $error })
storage-malformed = le fichier est abîmé ou a été mal modifié ({ $error })
storage-version = il vient d'une autre version du jeu (format { $found }, ce jeu lit le format { $expected })

## Leçons : la première partie guidée.
lessons-button = Apprendre à jouer
lessons-offer-title = Vous découvrez le Fanorona ?
lessons-offer-text = Huit courtes leçons enseignent les règles sur le plateau, puis vous jouez une première partie sur le petit plateau.
lessons-offer-yes = Commencer les leçons
lessons-offer-no = Plus tard
lessons-progress = Leçon { $n } sur { $total }
lessons-previous = Précédente
lessons-next = Suivante
lessons-retry = Réessayer
lessons-close = Retour au titre
lessons-right = Bravo !
lessons-shown = Les flèches montrent un tour qui convient. Réessayez, ou continuez.
lessons-refused = Interdit : { $reason }
lessons-paika-title = Déplacer un pion (paika)
lessons-paika-text = Vous jouez les Blancs. Quand vous ne pouvez pas prendre, vous avancez un pion d'un pas le long d'une ligne vers un point libre voisin : c'est un coup paika. Cliquez sur votre pion, puis sur un point voisin.
lessons-approach-title = Prise par approche
lessons-approach-text = Avancez un pion vers un pion ennemi pour arriver juste devant lui, sur la même ligne : il est pris, ainsi que tous les pions ennemis qui le suivent sur la ligne. Prenez les deux pions noirs.
lessons-withdrawal-title = Prise par éloignement
lessons-withdrawal-text = Éloignez un pion en ligne droite d'un pion ennemi voisin : ce pion et les pions ennemis derrière lui sur la ligne sont pris. Prenez en vous éloignant.
lessons-choice-title = Approche ou éloignement ?
lessons-choice-text = Ici un même pas peut prendre des deux façons : par approche le pion devant, par éloignement la ligne derrière. Il faut choisir. Prenez le plus de pions.
lessons-compulsory-title = La prise est obligatoire
lessons-compulsory-text = Si l'un de vos pions peut prendre, vous devez prendre : un coup paika est interdit. Essayez un paika pour voir, puis prenez.
lessons-relay-title = Les prises en chaîne
lessons-relay-text = Après une prise, le même pion peut prendre encore, et encore. Chaque pas suivant doit prendre. Prenez les quatre pions noirs en un seul tour.
lessons-limits-title = Les limites d'une chaîne
lessons-limits-text = Dans une chaîne, le pion ne peut pas aller deux fois de suite dans la même direction, ni revenir sur un point où il est passé pendant ce tour. Prenez les trois pions noirs.
lessons-stop-title = Arrêter une chaîne
lessons-stop-text = Vous pouvez arrêter une chaîne quand vous voulez, par exemple pour garder votre pion hors de danger. Prenez un pion, puis appuyez sur Fin du tour.
lessons-final-title = Votre première partie
lessons-final-text = Vous connaissez les règles. Jouez une partie sur le petit plateau (5 × 5) contre l'ordinateur le plus doux. Les leçons restent accessibles depuis l'écran titre.
lessons-final-play = Jouer contre Débutant
lessons-wrong-paika = Ce n'était pas un coup paika.
lessons-wrong-approach = Cette prise n'était pas par approche : avancez vers le pion ennemi.
lessons-wrong-withdrawal = Cette prise n'était pas par éloignement : éloignez-vous du pion ennemi.
lessons-wrong-capture = Ce tour n'a rien pris.
lessons-wrong-more = Un autre choix prend plus de pions.
lessons-wrong-most = Belle chaîne, mais un autre chemin prend plus de pions.
lessons-wrong-stop = La chaîne a continué : cette fois, arrêtez après la première prise avec Fin du tour.

## L'échiquier d'analyse.
analysis-button = Plateau d'analyse
analysis-title = Plateau d'analyse
analysis-not_a_game = Ce n'est pas une partie : rien ici ne compte dans les statistiques ni n'est enregistré comme partie.
analysis-explore = Explorer
analysis-edit = Installer
analysis-edit_help = Cliquez sur un point pour y poser le pion choisi ; cliquez encore pour l'enlever.
analysis-brush_white = Blanc
analysis-brush_black = Noir
analysis-brush_erase = Effacer
analysis-to_move = Au trait :
analysis-clear = Plateau vide
analysis-too_many = Un camp ne peut pas avoir plus de pions qu'au départ.
analysis-lines = Lignes :
analysis-thinking = Le moteur réfléchit…
analysis-white_view = Scores du point de vue des Blancs : + est bon pour les Blancs, - pour les Noirs.
analysis-line = { $k }. { $score } (profondeur { $depth })  { $pv }
analysis-root = Début
analysis-tried = Tours essayés d'ici :
analysis-fen = Position (FEN)
analysis-load_fen = Charger
analysis-copy_fen = Copier

## Analyse de partie.
review-button = Analyser
review-title = Analyse de la partie
review-progress = Analyse du tour { $done } sur { $total }
review-waiting = Ce tour n'est pas encore analysé.
review-end = La fin de la partie.
review-turn = { $n }. { $turn } : { $class }
review-better = Mieux : { $turn } (ce tour a perdu { $loss } pions)
review-summary = { $side } : précision { $accuracy } %, { $inaccuracies ->
        [one] { $inaccuracies } imprécision
       *[other] { $inaccuracies } imprécisions
    }, { $mistakes ->
        [one] { $mistakes } erreur
       *[other] { $mistakes } erreurs
    }, { $blunders ->
        [one] { $blunders } gaffe
       *[other] { $blunders } gaffes
    }
review-play_on = Continuer d'ici contre l'ordinateur
review-class_forced = forcé
review-class_best = meilleur
review-class_good = bon
review-class_inaccuracy = imprécision
review-class_mistake = erreur
review-class_blunder = gaffe
review-note_missed_relay = Le meilleur tour prenait { $pieces } { $pieces ->
    [one] pion
   *[other] pions
} de plus.
review-note_allowed_capture = Ce tour a laissé l'adversaire prendre { $pieces } { $pieces ->
    [one] pion
   *[other] pions
}.
review-note_missed_win = Ce tour a laissé échapper une partie gagnée.
review-note_allows_loss = Après ce tour, l'adversaire peut forcer la victoire.

## Problèmes.
puzzles-button = Problèmes
puzzles-rating = Votre classement aux problèmes : { $rating } ({ $solved } résolus sur { $tried })
puzzles-none = Aucun problème n'est disponible.
puzzles-to_move = Aux { $side } de jouer. Classement du problème { $rating }.
puzzles-kind_win = Gagner en { $n } tours
puzzles-kind_relay = Trouvez la plus longue chaîne
puzzles-kind_save = Sauvez vos pions
puzzles-kind_choice = Approche ou éloignement ?
puzzles-right = Juste ! L'adversaire répond…
puzzles-solved = Résolu !
puzzles-shown = Voici la solution.
puzzles-show_solution = Montrer la solution
puzzles-next = Problème suivant
puzzles-miss_illegal = Ce tour n'est pas possible ici.
puzzles-miss_fewer = Ce tour en a pris { $took }, mais { $most } pouvaient être pris.
puzzles-miss_loses = Après cela l'adversaire peut prendre { $pieces } { $pieces ->
    [one] pion
   *[other] pions
}.
puzzles-miss_kind = Le bon pas, mais l'autre façon de prendre.
puzzles-miss_not_best = Un tour légal, mais pas le meilleur ici.

## Fanoron-Telo.
telo-button = Fanoron-Telo (3 × 3)
telo-title = Fanoron-Telo
telo-rules = Trois pions chacun : posez-les un par un, puis déplacez-les d'un pas le long d'une ligne. Trois alignés gagnent.
telo-you_white = Vous : Blancs
telo-you_black = Vous : Noirs
telo-two_players = Deux joueurs
telo-gentle = Ordinateur doux
telo-perfect = Ordinateur parfait
telo-to_place = { $side } : posez un pion.
telo-to_move = { $side } : déplacez un pion.
telo-wins = { $side } gagnent !
telo-draw = Nulle : la même position est revenue trois fois.

## Jeu en ligne
online-button = Jouer en ligne avec un ami
online-title = Jouer en ligne
online-server = Serveur
online-name = Votre nom
online-colour = Votre couleur
online-random = Au hasard
online-create = Créer une partie
online-quick = Partie rapide
online-code = Code d'invitation
online-join = Rejoindre
online-watch_code = Code spectateur
online-watch = Regarder
online-bad_code = Ce n'est pas un code : collez les 32 lettres et chiffres, ou le lien entier.
online-connecting = Connexion à { $server }…
online-retrying = { $server } injoignable ; nouvel essai…
online-queued = En attente d'un adversaire…
online-invite_intro = Donnez ce code à votre ami, ou le lien :
online-copy_code = Copier le code
online-copy_link = Copier le lien
online-spectate_intro = D'autres peuvent regarder avec ce code :
online-waiting_friend = En attente de votre ami…
online-joining = Entrée dans la partie…
online-cancel = Annuler
online-watching = En ligne : vous regardez
online-no_name = sans nom
online-seat_free = { $side } : personne encore
online-seat_here = { $side } : { $name }, connecté
online-seat_away = { $side } : { $name } est déconnecté ; en attente de son retour…
online-seat_unknown = { $side } : { $name } ; état inconnu jusqu'à notre reconnexion
online-reconnecting = Connexion perdue ; reconnexion…
online-server_hint = Une adresse, ou plusieurs séparées par des virgules ou des espaces : si l'une ne répond pas, le jeu essaie la suivante.
online-connected_to = Connecté à { $server }
online-retrying_next = Échec de la connexion ; prochain essai avec { $server }…
online-reconnecting_to = Connexion perdue ; reconnexion à { $server }…
online-draw_offered = Vous avez proposé la nulle ; en attente de la réponse.
online-takeback_asked = Les { $side } demandent à reprendre leur dernier tour.
online-takeback_waiting = Vous avez demandé à reprendre votre dernier tour ; en attente de la réponse.
online-draw_declined = Votre proposition de nulle a été refusée.
online-takeback_declined = Votre demande de reprise a été refusée.
online-record_saved = La partie a été enregistrée : { $place }
online-again = Rejouer en ligne
online-error-garbled = Le serveur a envoyé un message illisible pour le jeu.
online-error-version = Le serveur utilise une autre version du jeu : mettez le jeu à jour pour y jouer.
online-error-unknown_game = Aucune partie n'a ce code.
online-error-seat_taken = Quelqu'un a déjà pris cette place.
online-error-not_your_turn = C'est au tour de votre adversaire.
online-error-illegal_turn = Le serveur a refusé ce tour : le plateau montre la partie telle que le serveur l'a.
online-error-game_over = La partie est terminée.
online-error-nothing_to_answer = Il n'y a rien à répondre.
online-error-no_opponent = Votre ami n'a pas encore rejoint la partie.
online-error-busy = Le serveur est occupé : réessayez dans un moment.
online-error-invalid = Le serveur a refusé un nom ou un code : vérifiez-le.
online-error-refused = Le serveur a refusé la demande.
hud-remote = { $side } (en ligne)
stats-online = Parties en ligne
stats-lessons_done = Leçons réussies : { $done } sur { $total }
