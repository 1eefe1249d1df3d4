"""Design search: find the constraint parameters that make the game better for a declared aim,
then confirm the finding on setups and games the search never saw (``ludolab design``).

A design config is an experiment config (:mod:`ludolab.research.experiment.config`: ``game``,
``seed``, ``players``, the setups per condition and games per setup, ``[[lineups]]``,
``[options]``) whose conditions are the candidates a search makes, from a ``[design]`` table.
Any registered game whose description gives its sets' constraints (``Game.set_constraints``,
and ``Game.set_without`` for a constraint switched off) can be searched; a Catan example, whose
setups are boards (the setup keys are named by the game's setups: ``deals``, ``games_per_deal``
for Masters Gallery)::

    [design]
    constraints = "tournament"     # the base set every candidate starts from
    sampler = "uniform"            # how each candidate's boards are drawn (default: the
                                   # game's default sampler)
    baseline = { "intersection-cap.max" = 12 }   # optional: the baseline's values (default:
                                   # the base set as it is); the confirmation compares with it
    trials = 40                    # the budget: trials, games and/or minutes (the first reached)
    rungs = 3                      # batches of `boards` boards a candidate is played on; after
                                   # each, a poor candidate may be stopped (successive halving)
    startup_trials = 8             # random trials before TPE models the results
    sampling_seconds = 20          # a candidate whose boards cannot be drawn in this time is
                                   # reported infeasible
    # storage = "postgresql://..." # Optuna storage (default: SQLite in the design's folder)

    [[design.parameters]]
    name = "intersection-cap.max"  # a parameter of the base set: a range ...
    low = 10
    high = 14                      # integers: an integer range (step = 1); floats: a float range

    [[design.parameters]]
    name = "no-resource-triangles" # a constraint of the base set: on or off
    choices = ["on", "off"]

    [[design.parameters]]
    name = "options.vp_to_win"     # a rule option
    choices = [9, 10, 11]

    [[design.objectives]]
    metric = "first_seat_win"      # a per-game metric; its mean over the candidate's games
    target = 0.25                  # goal "target" (|mean - target|, minimised), "minimize" or
    margin = 0.03                  # "maximize"; margin: the smallest change that matters,
                                   # which the confirmation is sized to detect

    [design.confirm]               # optional
    candidates = 1                 # how many of the best to confirm
    games_per_board = 10
    min_boards = 20                # the plan's recommendation is kept within these
    max_boards = 200               # (boards = N fixes the size instead)

The method, module by module: :mod:`.spec` reads and checks the file; :mod:`.evaluate` plays a
candidate rung by rung on common random numbers (every candidate the same setup and game seeds)
and estimates its objectives with the setup as the unit of analysis; :mod:`.search` runs
Optuna (TPE; MOTPE for several objectives; successive halving over rungs for one) so that the
trials are reproducible from the seed and a killed search resumes to the same trials;
:mod:`.confirm` reruns the best and the baseline as an ordinary ``ludolab run`` on fresh seeds,
sized by ``ludolab plan``; :mod:`.report` and :mod:`.figures` write ``report.md``, where the
confirmed difference stands next to the search's own estimate (their gap is the winner's curse);
:mod:`.run` ties them together.
"""
