"""The difficulty study of the generated puzzle games (``ludolab puzzle study``)."""
