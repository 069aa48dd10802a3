"""Views of tournaments, split by who uses them: public, referee, director."""
