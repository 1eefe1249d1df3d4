"""OpenSpiel's games as ludolab games: the family ``openspiel`` (:mod:`.game`), its constraint
sets on game parameters and openings (:mod:`.sets`), and ``ludolab openspiel``
(:mod:`.commands`)."""
