"""Splendor (Marc André, Space Cowboys 2014): its components and rules engine."""
