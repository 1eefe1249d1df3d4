"""OpenSpiel's games as ludolab engines: the setup, the state (chance from ludolab's streams),
the record, and OpenSpiel's bots as agents. Needs the optional extra ``ludolab[openspiel]``;
``ludolab.research.openspiel`` describes the games to ludolab's generic layers."""
