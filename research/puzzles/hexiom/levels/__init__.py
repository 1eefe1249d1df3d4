"""The 41 Hexiom levels of the seed (level00.txt .. level40.txt), shipped as package data."""
