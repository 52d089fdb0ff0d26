### Ny soratra malagasy ao amin'ny lalao.
###
### How to edit this file: see CONTRIBUTING.md at the root of the repository. A message id is the
### game's key with dots written as dashes (`menu.new_game` is `menu-new_game`); the text after `=` is what
### players see; `{ $name }` is a value the game fills in, keep its name as it is.

app-title = Fanorona

menu-subtitle = ny lalao nentin-drazana malagasy
menu-new_game = Lalao vaovao
menu-settings = Fikirana
menu-rules = Fitsipika
menu-quit = Hivoaka
menu-back = Miverina
menu-title_screen = Fandraisana

setup-start = Hanomboka
setup-players = Mpilalao
setup-vs_cpu = Hiady amin'ny solosaina
setup-hot_seat = Mpilalao roa, efijery iray
setup-cpu_vs_cpu = Hijery ny solosaina milalao irery
setup-you_play = Ny lokonao
setup-cpu_level = Ambaratongan'ny solosaina
setup-board = Takelaka
setup-relays = Fihinanana mitohy
setup-relay_default = Mahazatra (tsy mandalo teboka iray in-droa)
setup-relay_lines = Tsipika (tsy mandalo tsipika iray in-droa)
setup-options = Safidy hafa
setup-first_turn_no_relay = Tsy misy fihinanana mitohy amin'ny anjara voalohany
setup-single_first_capture = Indray mihinana monja amin'ny fihinanana voalohany
setup-black_starts = Ny Mainty no manomboka

side-white = Fotsy
side-black = Mainty
side-white_initial = F
side-black_initial = M

level-beginner = Vao manomboka
level-novice = Mpianatra
level-intermediate = Antonony
level-advanced = Mahay
level-master = Tompon'ny lalao

variant-tsivy = Fanoron-Tsivy (9 × 5)
variant-dimy = Fanoron-Dimy (5 × 5)

rules-title = Fomba filalaovana

settings-language = Fiteny
settings-animation_speed = Hafainganan'ny hetsika

speed-off = Tsy misy
speed-fast = Haingana
speed-normal = Mahazatra
speed-slow = Miadana

sound-title = Feo
sound-master = Ankapobeny
sound-effects = Feon'ny lalao
sound-music = Mozika
sound-mute = Atsahatra ny feo

result-you_win = Nandresy ianao!
result-cpu_wins = Nandresy ny solosaina
result-you_lose = Resy ianao
result-white_wins = Nandresy ny Fotsy
result-black_wins = Nandresy ny Mainty
result-draw = Sahala

outcome-with_reason = { $result }: { $reason }

reason-white_no_pieces = tsy manana vato intsony ny Fotsy
reason-black_no_pieces = tsy manana vato intsony ny Mainty
reason-white_no_moves = tsy manana dingana azo atao intsony ny Fotsy
reason-black_no_moves = tsy manana dingana azo atao intsony ny Mainty
reason-white_resigned = nifoy ny Fotsy
reason-black_resigned = nifoy ny Mainty
reason-draw_repetition = sahala noho ny fiverimberenana
reason-no_capture = anjara maro loatra tsy nisy nihinana
reason-draw_agreement = sahala araka ny fifanarahana

over-after_turns = taorian'ny anjara { $turns }
over-change_setup = Hanova ny lalao
over-take_back = Averina ny dingana
over-kept = Voatahiry ao amin'ny lalao voatahiry.

pause-title = Mijanona kely
pause-resume = Hanohy

hud-you = { $side } (ianao)
hud-cpu = { $side } (solosaina, { $level })
hud-paused = Mijanona kely
hud-thinking_depth = Mieritreritra ny { $side }… halalina { $depth }, { $seconds } s
hud-thinking = Mieritreritra ny { $side }… { $seconds } s
hud-relay = { $side }: mihinàna indray amin'io vato io ihany, na Tapitra ny anjara
hud-to_move = Anjaran'ny { $side } milalao
hud-choose_direction = — fanatonana sa fialana? Tsindrio ny vato iray amin'ny tsipika hohanina.
hud-counts = vato: { $pieces }   azo: { $captured }
hud-end_turn = Tapitra ny anjara (Enter)
hud-undo = Hiverina (U)
hud-redo = Averina atao
hud-hint = Torohevitra
hud-offer_draw = Hanolotra sahala
hud-resign = Mifoy
hud-resign_confirm = Eny, mifoy
hud-resign_keep = Hanohy hilalao
hud-hint_pending = Mitady dingana tsara…
hud-hint_answer = Torohevitra: { $turn }  ({ $score })
hud-offers_draw = Manolotra sahala ny { $side }.
hud-accept = Ekena
hud-decline = Lavina
hud-cpu_considers = Mandinika ny tolotrao ny solosaina ({ $level })…
hud-animation = Hetsika:
hud-menu = Safidy (Esc)
hud-moves = Dingana

score-win_in = handresy afaka anjara { $turns }
score-loss_in = ho resy afaka anjara { $turns }

number-decimal_separator = ,

capture-title = Ho aiza ny fihinanana?
capture-explain = Afaka mihinana amin'ny tsipika roa io dingana io. Tsindrio ny vato iray amin'ny tsipika, na:
capture-approach = Fanatonana ({ $count })
capture-withdrawal = Fialana ({ $count })
capture-cancel = Foanana

note-not_joined = tsy mifamatotra amin'ny tsipika ny { $from } sy ny { $to }
note-not_allowed = tsy azo atao io dingana io
note-click_line = tsindrio ny vato iray amin'ny tsipika tianao hohanina
note-relay_only = mbola misy fihinanana mitohy: ny vato eo amin'ny { $point } ihany no afaka mihetsika
note-compulsory = tsy maintsy mihinana: afindrao ny iray amin'ireo vato voamarika
note-nowhere = tsy misy halehan'ity vato ity

illegal-game_over = vita ny lalao: tsy manana dingana azo atao ny mpilalao manana anjara
illegal-off_board = tsy ao amin'ity takelaka ity ny { $point }
illegal-not_your_piece = tsy misy vaton'ny mpilalao manana anjara eo amin'ny { $point }
illegal-not_joined = tsy mifamatotra amin'ny tsipika ireo teboka roa ireo
illegal-occupied = efa misy vato ny { $point }
illegal-capture_compulsory = misy azo hohanina, ka tsy maintsy mihinana
illegal-nothing_to_capture = tsy misy hohanina amin'io lalana io
illegal-vela_no_capture = tsy mbola afaka mihinana ny nandresy tamin'ny vela
illegal-same_direction = tsy azo mandeha in-droa misesy amin'ny lalana iray ny fihinanana mitohy
illegal-revisited = efa nandalo teo amin'ny { $point } io vato io tamin'ity anjara ity
illegal-segment_reused = efa nodiavina tamin'ity anjara ity io tsipika io
illegal-relay_must_capture = tsy maintsy mihinana ny dingana rehetra amin'ny fihinanana mitohy
illegal-no_relay = tsy misy fihinanana mitohy hajanona

## Ny efijery misy ny fitsipika sy ny fanampiana (src/help.rs).
help-board-title = Ny solaitra sy ny tanjon'ny lalao
help-board-body = Teboka 45 (9 × 5) mifamatotra amin'ny tsipika no ilalaovana ny Fanorona. Mifandray amin'ireo teboka manodidina azy, mitsivalana sy mitsangana, ny teboka tsirairay; ny teboka matanjaka, izay misy faribolana, dia mifandray amin'ny tsipika mitongilana koa. Eo amin'ny teboka no apetraka ny vato, ary manaraka ny tsipika no ifindrany. Samy manana vato 22 ny mpilalao: ny Fotsy no mameno ireo andalana roa akaiky azy, ny Mainty ireo roa lavitra, ary mifandimby loko ny andalana afovoany, ka ny teboka afovoany ihany no foana. Ny Fotsy no manomboka. Ny tanjona: mihinana ny vaton'ny mpifanandrina rehetra, na mamela azy tsy hanana famindrana azo atao intsony.
help-paika-title = Mamindra: paika
help-paika-body = Rehefa tonga ny anjaranao, afindrao dingana iray manaraka tsipika ny iray amin'ireo vatonao, ho any amin'ny teboka foana manila azy. Ny famindrana tsy mihinana na inona na inona dia atao hoe paika, ary tsy azo atao raha misy vatonao afaka mihinana: tsy maintsy mihinana ianao raha azo atao.
help-approach-title = Mihinana amin'ny fanatonana
help-approach-body = Manatona vaton'ny mpifanandrina ka ajanony eo anoloany mivantana ny vatonao, eo amin'ny tsipika nalehany. Lany io vato io, miaraka amin'ireo vaton'ny mpifanandrina rehetra manaraka azy mivantana eo amin'io tsipika io, hatramin'ny teboka foana voalohany, vatonao iray na ny sisin'ny solaitra.
help-withdrawal-title = Mihinana amin'ny fialana
help-withdrawal-body = Mialà mivantana amin'ny vaton'ny mpifanandrina mifanila amin'ny vatonao, manaraka ny tsipika. Lany io vato io, miaraka amin'ireo vaton'ny mpifanandrina rehetra manaraka azy mivantana eo amin'io tsipika io, hatramin'ny teboka foana voalohany, vatonao iray na ny sisiny. Mihinana toy ny tsipika hafa ihany koa ny tsipika mitongilana.
help-choice-title = Fanatonana sa fialana?
help-choice-body = Indraindray ny dingana iray dia afaka mihinana amin'ny lafiny roa: amin'ny fanatonana eo aloha sy amin'ny fialana ao aoriana. Tsy maintsy misafidy tsipika iray amin'izy roa ianao; tsy azo hanina miaraka mihitsy izy roa. Ao amin'ny lalao, tsindrio ny vato iray amin'ny tsipika tianao hohanina, na safidio ny Fanatonana na ny Fialana ao amin'ny varavarankely miseho.
help-relay-title = Mihinana misesy (rafle)
help-relay-body = Aorian'ny fihinanana, io vato io ihany dia afaka mihinana indray, ary indray, raha mbola afaka; tsy maintsy mihinana koa ny dingana manaraka tsirairay. Tsy azo aleha in-droa misesy amin'ny lalana mitovy ny vato, ary tsy azony iverenana ny teboka efa nisy azy nandritra io anjara io (anisan'izany ny teboka niaingany). Afaka mijanona amin'izay tianao ianao, na dia mbola misy azo hanina aza.
help-end-title = Ny fiafaran'ny lalao
help-end-body = Resy ny mpilalao tsy manana vato intsony, na tsy manana famindrana azo atao rehefa anjarany. Sahala ny lalao raha mifanaiky ny mpilalao (Hanolotra sahala), raha miverina fanintelony ny toerana iray ihany ka mpilalao iray ihany no hamindra, na aorian'ny anjara maromaro misesy tsy nisy nihinana (100 raha tsy ovaina).
help-variants-title = Karazana sy safidy
help-variants-dimy = Fanoron-Dimy: fitsipika mitovy ihany amin'ny solaitra kely 5 × 5, vato 12 avy; ny andalana afovoany dia: mainty, fotsy, foana, mainty, fotsy.
help-variants-vela = Vela, ilay lalao fanonerana atao rehefa miverina milalao: ny resy tamin'ny lalao teo aloha no manomboka, ary vato iray ihany no hohaniny isaky ny anjara (ilay vaton'ny mpifanandrina manila ny tsipika nalehany, tsy misy fihinanana misesy); ny nandresy teo aloha kosa tsy mihinana mihitsy (paika ihany) mandra-pahalanin'ny vatony fito ambin'ny folo, ary avy eo dia ampiharina ny fitsipika mahazatra. Izay resy amin'ny lalao vela dia milalao vela indray; ny fandresena azy no mampiverina ny lalao mitovy lanja.
help-variants-options = Safidy amin'ny lalao vaovao: azon'ny Mainty atao ny manomboka fa tsy ny Fotsy; azo arahina ny fitsipika "tsipika" amin'ny fihinanana misesy (miova lalana isaky ny dingana ary tsy mandalo intsony amin'ny tapa-tsipika efa nalehany tamin'io anjara io) fa tsy ny fitsipika mahazatra; azo ajanona aorian'ny fihinanana voalohany ny anjara voalohany amin'ny lalao; ary azo fetrana ho dingana iray monja ny fihinanana voalohan'ny mpilalao tsirairay.
help-controls-title = Fampiasana
help-controls-mouse = Totozy na fikasihana: tsindrio ny vato iray, avy eo ny iray amin'ireo teboka misongadina; mihinana ny teboka mena. Raha afaka mihinana amin'ny lafiny roa ny dingana, tsindrio ny vato iray amin'ny tsipika tianao hohanina, na misafidiana ao amin'ny varavarankely miseho. Mandritra ny fihinanana misesy, ny Tapitra ny anjara (na Enter na Space) no mampijanona azy.
help-controls-keys = U manafoana ny famindrana farany. Escape manafoana ny safidy na, raha tsy misy voafidy, mampiato ny lalao.
help-controls-keyboard = Milalao amin'ny fitendry: ny bokotra zana-tsipika no mamindra ny cursor, Enter no misafidy sy manamafy, Backspace na Escape no manafoana.

persist-settings_doc = ny fikirakiranao
persist-stats_doc = ny antontan'isanao
persist-game_doc = ny lalao notahirizinao
persist-moved_aside = Tsy azo nampiasaina { $what } : { $error }. Notehirizina ho "{ $file }" ilay rakitra ary manomboka indray ny lalao.
persist-unreadable = Tsy voavaky { $what } : { $error }. Tsy nokitihina izy.
persist-save_failed = Tsy voatahiry { $what } : { $error }.
persist-notice_title = Fampahafantarana
persist-ok = Eny
persist-continue = Tohizo ny lalao

settings-theme = Takelaka
settings-keep_games = Tehirizina ao amin'ny lalao voatahiry ny lalao vita rehetra
settings-data_dir = Voatahiry ao amin'ny : { $place }
settings-tablebase_ready = Vonona ny tabilaon'ny famaranana: milalao tsy misy diso ireo ambaratonga matanjaka raha vato { $pieces } na latsaka.
settings-tablebase_building = Tabilaon'ny famaranana: eo am-panamboarana ny an'ny vato { $next }…
settings-tablebase_growing = Tabilaon'ny famaranana: tsy misy diso raha vato { $pieces } na latsaka amin'izao; eo am-panamboarana ny an'ny vato { $next }…
settings-seven_offer = Lalao tsy misy diso raha vato fito: amboary eto amin'ity solosaina ity ireo tabilaon'ny famaranana lehibe kokoa (eo amin'ny 10 minitra amin'ireo fotony tsy miasa, 1,3 Go amin'ny kapila, 2,3 Go amin'ny fitadidiana mandritra ny fanamboarana).
settings-seven_build = Amboary ireo tabilaon'ny vato fito
settings-seven_resume = Tohizo ny fanamboarana (dingana { $done } amin'ny { $steps } vita)
settings-seven_six = tabilao hatramin'ny vato { $pieces }
settings-seven_pair = vato { $a } manoloana vato { $b }
settings-seven_building = Eo am-panamboarana ireo tabilaon'ny vato fito: dingana { $step } amin'ny { $steps }, { $material }; { $minutes } minitra hatreto…
settings-seven_stop = Ajanony (voatahiry izay efa vita)
settings-seven_stopping = Eo am-panajanonana ny fanamboarana ny vato fito…
settings-seven_stopped = Najanona ny fanamboarana ny vato fito; voatahiry izay efa vitany.
settings-seven_failed = Tsy nahomby ny fanamboarana ny vato fito: { $error }

theme-wood = Hazo
theme-night = Alina
theme-sand = Fasika

stats-button = Antontan'isa
stats-title = Antontan'isa
stats-played = Lalao nilalaovina
stats-finished = Lalao vita
stats-opponent = Mpifanandrina
stats-wins = Nandresy
stats-losses = Resy
stats-draws = Sahala
stats-vs_level = Solosaina : { $level }
stats-hot_seat = Mpilalao roa (Fotsy / Mainty no nandresy)
stats-longest_relay = Fihinanana mitohy lava indrindra : { $captures } tao anatin'ny anjara iray
stats-most_pieces = Vato betsaka indrindra tao anatin'ny anjara iray : { $pieces }
stats-none = Mbola tsy misy lalao.
stats-reset = Fafao ny antontan'isa
stats-reset_confirm = Hofafana daholo ve ny antontan'isa? Tsy azo averina intsony izany.
stats-yes_reset = Eny, fafao
stats-cancel = Ajanony

vela-match = Lalao misy vela (afaka mangataka lalao vela ny resy)
vela-claim = Vela : mangataka ny lalao vela i { $side }
vela-hud = Vela : tsy afaka mihinana { $side } raha tsy voahinana ny { $threshold } amin'ny vatony ({ $taken } / { $threshold })
vela-over = Vita ny vela : fitsipika mahazatra.
vela-again = Vela indray : mangataka lalao vela hafa i { $side }

keys-title = Fafan-teny
keys-board = Fanalahidy : zana-tsipika hifindra · Enter/Espace hisafidy na hilalao · E hamarana ny fihinanana misesy · Backspace hanafoana · U hiverina · Esc hiato
keys-choice = Fanalahidy : A na 1 fanatonana · W na 2 fialana · Backspace hanafoana
keys-help = Ny zana-tsipika (na H, J, K, L) no mamindra faribolana eo amin'ny teboka. Enter na Espace eo amin'ny vatonao iray dia misafidy azy; eo amin'ny teboka misongadina dia milalao ilay dingana. Raha afaka mihinana amin'ny lafiny roa ilay dingana, tsindrio ny A (na 1) ho an'ny fanatonana na ny W (na 2) ho an'ny fialana. Ny E, na Enter eo amin'ny vato mihinana misesy, no mamarana ny fihinanana misesy. Backspace na Esc no manafoana ny safidy; Esc raha tsy misy voafidy dia mampiato ny lalao. U no mamerina dingana iray.

records-title = Lalao voatahiry
records-save = Tehirizo ny lalao
records-copy = Adikao ny lalao
records-saved = Voatahiry ny lalao : { $place }
records-save_failed = Tsy voatahiry ny lalao : { $error }.
records-downloaded = Voasintona.
records-copied = Voadika ao amin'ny fitehirizana vonjimaika.
records-copy_failed = Tsy azo idirana ny fitehirizana vonjimaika.
records-none = Mbola tsy misy lalao voatahiry.
records-open = Sokafy
records-unreadable = (tsy voavaky)
records-in_progress = tsy vita
records-summary = { $white } sy { $black } · { $result } · anjara { $turns }
records-open_file = Hanokatra rakitra…
records-waiting_file = Miandry ny rakitra…
records-path = Rakitry ny lalao :
records-load = Ampidiro
records-paste = Na apetaho eto ny lalao iray :
records-load_pasted = Ampidiro ny lalao napetaka
records-file_error = Tsy voavaky { $file } : { $error }
records-invalid = Tsy azo ampidirina ity lalao ity : { $error }
records-players = Fotsy: { $white }  ·  Mainty: { $black }
records-start_position = toerana fanombohana
records-play_from_here = Milalao manomboka eto
records-keys = Zana-tsipika : anjara tsirairay · Home / End : fiandohana sy fiafarana · Escape : miverina

storage-io = tsy azo novakiana na nosoratana ({ $error })
storage-malformed = simba na diso fanovana ilay rakitra ({ $error })
storage-version = avy amin'ny dikan-teny hafa amin'ny lalao izy (endrika { $found }, ity lalao ity dia mamaky ny { $expected })

## Lesona: ny lalao voalohany tarihina.
lessons-button = Mianara milalao
lessons-offer-title = Vao mahita ny Fanorona ve ianao?
lessons-offer-text = Lesona fohy valo no mampianatra ny fitsipika eo amin'ny takelaka, avy eo milalao lalao voalohany amin'ny takelaka kely ianao.
lessons-offer-yes = Atombohy ny lesona
lessons-offer-no = Tsy izao
lessons-progress = Lesona { $n } amin'ny { $total }
lessons-previous = Teo aloha
lessons-next = Manaraka
lessons-retry = Andramo indray
lessons-close = Hiverina any amin'ny lohateny
lessons-right = Tsara be!
lessons-shown = Ny zana-tsipìka no mampiseho fihetsika mety. Andramo indray, na tohizo.
lessons-refused = Tsy azo atao: { $reason }
lessons-paika-title = Mamindra vato (paika)
lessons-paika-text = Ianao no mitana ny Fotsy. Raha tsy afaka mihinana ianao, dia afindranao dingana iray manaraka tsipika ho amin'ny teboka malalaka mifanakaiky ny vato iray: paika izany. Tsindrio ny vatonao, avy eo ny teboka akaiky azy.
lessons-approach-title = Mihinana amin'ny fanatonana
lessons-approach-text = Ataovy manatona vato fahavalo ny vatonao mba hijanona eo alohany mivantana, amin'ny tsipika iray ihany: azo io vato io, sy ny vato fahavalo rehetra manaraka azy eo amin'ny tsipika. Haloy ireo vato mainty roa.
lessons-withdrawal-title = Mihinana amin'ny fialana
lessons-withdrawal-text = Ampialao mahitsy amin'ny vato fahavalo eo akaikiny ny vatonao: azo io vato io sy ireo vato fahavalo ao aoriany eo amin'ny tsipika. Mihinàna amin'ny fialana.
lessons-choice-title = Fanatonana sa fialana?
lessons-choice-text = Eto, dingana iray ihany no afaka mihinana amin'ny lafiny roa: amin'ny fanatonana ny vato eo anoloana, amin'ny fialana ny andalana ao aoriana. Tsy maintsy misafidy ianao. Haloy ny vato betsaka indrindra.
lessons-compulsory-title = Tsy maintsy mihinana
lessons-compulsory-text = Raha misy vatonao afaka mihinana, dia tsy maintsy mihinana ianao: tsy azo atao ny paika. Andramo paika mba hahitanao, avy eo mihinàna.
lessons-relay-title = Fihinanana mifanesy
lessons-relay-text = Aorian'ny fihinanana, afaka mihinana indray ilay vato ihany, ary indray. Tsy maintsy mihinana ny dingana manaraka rehetra. Haloy amin'ny fihetsika iray ireo vato mainty efatra.
lessons-limits-title = Ny fetran'ny fihinanana mifanesy
lessons-limits-text = Amin'ny fihinanana mifanesy, tsy afaka mandeha indroa misesy amin'ny lalana iray ihany ny vato, ary tsy afaka miverina amin'ny teboka efa nijanonany tamin'ity fihetsika ity. Haloy ireo vato mainty telo.
lessons-stop-title = Mamarana fihinanana mifanesy
lessons-stop-text = Afaka mijanona amin'izay tianao ianao, ohatra mba hiarovana ny vatonao amin'ny loza. Mihinàna vato iray, avy eo tsindrio ny « Tapitra ny anjara ».
lessons-final-title = Ny lalaonao voalohany
lessons-final-text = Fantatrao ny fitsipika. Milalaova amin'ny takelaka kely (5 × 5) miaraka amin'ny solosaina malemy indrindra. Afaka miverina amin'ny lesona avy amin'ny lohateny foana ianao.
lessons-final-play = Hilalao amin'ny Vao manomboka
lessons-wrong-paika = Tsy paika izany.
lessons-wrong-approach = Tsy fanatonana io fihinanana io: manatòna ny vato fahavalo.
lessons-wrong-withdrawal = Tsy fialana io fihinanana io: mialà amin'ny vato fahavalo.
lessons-wrong-capture = Tsy nihinana na inona na inona io fihetsika io.
lessons-wrong-more = Misy safidy hafa mihinana vato betsaka kokoa.
lessons-wrong-most = Tsara ny fihinanana, fa misy lalana hafa mihinana vato betsaka kokoa.
lessons-wrong-stop = Nitohy ny fihinanana: amin'ity indray mitoraka ity, mijanòna aorian'ny fihinanana voalohany amin'ny « Tapitra ny anjara ».

## Ny takelaka fandalinana.
analysis-button = Takelaka fandalinana
analysis-title = Takelaka fandalinana
analysis-not_a_game = Tsy lalao ity: tsy isaina amin'ny antontan'isa na tehirizina ho lalao ny zavatra atao eto.
analysis-explore = Hikaroka
analysis-edit = Handamina
analysis-edit_help = Tsindrio teboka iray hametrahana ny vato voafidy; tsindrio indray hanesorana azy.
analysis-brush_white = Fotsy
analysis-brush_black = Mainty
analysis-brush_erase = Fafao
analysis-to_move = Anjaran'i:
analysis-clear = Takelaka foana
analysis-too_many = Tsy afaka manana vato mihoatra noho ny tany am-piandohana ny andaniny iray.
analysis-lines = Andalana:
analysis-thinking = Mieritreritra ny milina…
analysis-white_view = Araka ny fijerin'ny Fotsy ny isa: + dia tsara ho an'ny Fotsy, - ho an'ny Mainty.
analysis-line = { $k }. { $score } (halalina { $depth })  { $pv }
analysis-root = Fiandohana
analysis-tried = Fihetsika nandramana avy eto:
analysis-fen = Toerana (FEN)
analysis-load_fen = Ampidiro
analysis-copy_fen = Adikao

## Fandalinana ny lalao.
review-button = Dinihina
review-title = Fandalinana ny lalao
review-progress = Mandinika ny fihetsika { $done } amin'ny { $total }
review-waiting = Mbola tsy voadinika ity fihetsika ity.
review-end = Ny faran'ny lalao.
review-turn = { $n }. { $turn }: { $class }
review-better = Tsara kokoa: { $turn } (namoy vato { $loss } ity fihetsika ity)
review-summary = { $side }: marina { $accuracy } %, diso kely { $inaccuracies }, diso { $mistakes }, diso be { $blunders }
review-play_on = Tohizo avy eto miaraka amin'ny solosaina
review-class_forced = tsy maintsy
review-class_best = tsara indrindra
review-class_good = tsara
review-class_inaccuracy = diso kely
review-class_mistake = diso
review-class_blunder = diso be
review-note_missed_relay = Nahazo vato { $pieces } fanampiny ny fihetsika tsara kokoa.
review-note_allowed_capture = Namela ny mpifanandrina haka vato { $pieces } ity fihetsika ity.
review-note_missed_win = Namela fandresena efa azo antoka handositra ity fihetsika ity.
review-note_allows_loss = Aorian'ity fihetsika ity, afaka manery fandresena ny mpifanandrina.

## Olana.
puzzles-button = Olana
puzzles-rating = Ny laharanao amin'ny olana: { $rating } ({ $solved } voavaha amin'ny { $tried })
puzzles-none = Tsy misy olana.
puzzles-to_move = Anjaran'ny { $side } ny milalao. Laharan'ny olana { $rating }.
puzzles-kind_win = Mandresy amin'ny fihetsika { $n }
puzzles-kind_relay = Tadiavo ny fihinanana mifanesy lava indrindra
puzzles-kind_save = Vonjeo ny vatonao
puzzles-kind_choice = Fanatonana sa fialana?
puzzles-right = Marina! Mamaly ny mpifanandrina…
puzzles-solved = Voavaha!
puzzles-shown = Ity ny vahaolana.
puzzles-show_solution = Asehoy ny vahaolana
puzzles-next = Olana manaraka
puzzles-miss_illegal = Tsy azo atao eto io fihetsika io.
puzzles-miss_fewer = Nahazo { $took } izany, nefa { $most } no azo nalaina.
puzzles-miss_loses = Aorian'izany dia afaka maka vato { $pieces } ny mpifanandrina.
puzzles-miss_kind = Dingana marina, fa ny fomba fihinanana hafa.
puzzles-miss_not_best = Fihetsika ara-dalàna, fa tsy ny tsara indrindra eto.

## Fanoron-telo.
telo-button = Fanoron-telo (3 × 3)
telo-title = Fanoron-telo
telo-rules = Vato telo avy: apetraho tsirairay, avy eo afindrao dingana iray manaraka tsipika. Mandresy izay manana telo mitohy.
telo-you_white = Ianao: Fotsy
telo-you_black = Ianao: Mainty
telo-two_players = Mpilalao roa
telo-gentle = Solosaina malemy
telo-perfect = Solosaina tsy diso
telo-to_place = { $side }: mametraha vato.
telo-to_move = { $side }: mamindrà vato.
telo-wins = Mandresy ny { $side }!
telo-draw = Sahala: niverina intelo ny toerana iray ihany.

## Lalao an-tserasera
online-button = Hilalao amin'ny namana an-tserasera
online-title = Hilalao an-tserasera
online-server = Mpizara
online-name = Ny anaranao
online-colour = Ny lokonao
online-random = Kisendrasendra
online-create = Hamorona lalao
online-quick = Lalao haingana
online-code = Kaody fanasana
online-join = Hiditra
online-watch_code = Kaody mpijery
online-watch = Hijery
online-bad_code = Tsy kaody izany: apetaho ireo litera sy isa 32, na ilay rohy manontolo.
online-connecting = Mifandray amin'i { $server }…
online-retrying = Tsy tratra i { $server }; manandrana indray…
online-queued = Miandry mpifanandrina…
online-invite_intro = Omeo ny namanao ity kaody ity, na ilay rohy:
online-copy_code = Adikao ny kaody
online-copy_link = Adikao ny rohy
online-spectate_intro = Afaka mijery amin'ity kaody ity ny hafa:
online-waiting_friend = Miandry ny hidiran'ny namanao…
online-joining = Miditra amin'ny lalao…
online-cancel = Foanana
online-watching = An-tserasera: mijery ianao
online-no_name = tsy misy anarana
online-seat_free = { $side }: mbola tsy misy
online-seat_here = { $side }: { $name }, mifandray
online-seat_away = { $side }: tapaka ny fifandraisan'i { $name }; miandry ny fiverenany…
online-seat_unknown = { $side }: { $name }; tsy fantatra mandra-pifandraisantsika indray
online-reconnecting = Tapaka ny fifandraisana; mifandray indray…
online-server_hint = Adiresy iray, na maromaro misaraka amin'ny faingo na elanelana: raha tsy mamaly ny iray, andramana ny manaraka.
online-connected_to = Mifandray amin'i { $server }
online-retrying_next = Tsy nahomby ny fifandraisana; i { $server } no andramana manaraka…
online-reconnecting_to = Tapaka ny fifandraisana; mifandray indray amin'i { $server }…
online-draw_offered = Nanolotra sahala ianao; miandry valiny.
online-takeback_asked = Mangataka hamerina ny fihetsiny farany ny { $side }.
online-takeback_waiting = Nangataka hamerina ny fihetsinao farany ianao; miandry valiny.
online-draw_declined = Nolavina ny tolotra sahala nataonao.
online-takeback_declined = Nolavina ny fangatahanao hamerina.
online-record_saved = Voatahiry ny lalao: { $place }
online-again = Hilalao an-tserasera indray
online-error-garbled = Nandefa hafatra tsy voavakin'ny lalao ny mpizara.
online-error-version = Dika hafa amin'ny lalao no ampiasain'ny mpizara: havaozy ny lalao mba hilalaovana any.
online-error-unknown_game = Tsy misy lalao manana io kaody io.
online-error-seat_taken = Efa nisy naka io toerana io.
online-error-not_your_turn = Ny mpifanandrina aminao no mila milalao.
online-error-illegal_turn = Nolavin'ny mpizara io fihetsika io: asehon'ny solaitra ny lalao araka ny an'ny mpizara.
online-error-game_over = Vita ny lalao.
online-error-nothing_to_answer = Tsy misy valiana.
online-error-no_opponent = Mbola tsy niditra ny namanao.
online-error-busy = Sahirana ny mpizara: andramo indray afaka kelikely.
online-error-invalid = Nolavin'ny mpizara ny anarana na kaody iray: hamarino.
online-error-refused = Nolavin'ny mpizara ny fangatahana.
hud-remote = { $side } (an-tserasera)
stats-online = Lalao an-tserasera
stats-lessons_done = Lesona vita: { $done } amin'ny { $total }
