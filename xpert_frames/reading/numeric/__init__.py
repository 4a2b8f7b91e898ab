"""Numbers read out of text, shared by the ``math`` and ``accuracy`` evaluators: the parser
(:mod:`.parse`), its regular grammar (:mod:`.grammar`), Chinese numerals (:mod:`.chinese`) and
units (:mod:`.units`)."""
