"""Splendor as a ludolab game: its description, opening constraints, samplers and model."""
