-- Standing draw offers and takeback requests, so that a restart keeps them: the side that made each, or NULL.

ALTER TABLE games ADD COLUMN draw_offer TEXT CHECK (draw_offer IN ('white', 'black'));
ALTER TABLE games ADD COLUMN takeback_request TEXT CHECK (takeback_request IN ('white', 'black'));
