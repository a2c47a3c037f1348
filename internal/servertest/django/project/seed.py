"""Seed data, run with `manage.py shell -c` (see ../django.go): three
authors and twelve books, so the change list pages at five per page and
every genre and stock filter has rows."""
import datetime

from library.models import Author, Book

authors = {name: Author.objects.create(name=name) for name in ["Ursula K. Le Guin", "Carl Sagan", "Mary Beard"]}
books = [
    ("A Wizard of Earthsea", "Ursula K. Le Guin", "1968-11-01", "fiction", True),
    ("The Left Hand of Darkness", "Ursula K. Le Guin", "1969-03-01", "fiction", True),
    ("The Dispossessed", "Ursula K. Le Guin", "1974-05-01", "fiction", False),
    ("The Lathe of Heaven", "Ursula K. Le Guin", "1971-01-01", "fiction", True),
    ("Cosmos", "Carl Sagan", "1980-10-01", "science", True),
    ("Pale Blue Dot", "Carl Sagan", "1994-11-01", "science", False),
    ("Contact", "Carl Sagan", "1985-09-01", "fiction", True),
    ("The Demon-Haunted World", "Carl Sagan", "1995-01-01", "science", True),
    ("SPQR", "Mary Beard", "2015-10-20", "history", True),
    ("Women & Power", "Mary Beard", "2017-11-02", "history", False),
    ("Pompeii", "Mary Beard", "2008-09-01", "history", True),
    ("Confronting the Classics", "Mary Beard", "2013-04-01", "history", True),
]
for title, author, published, genre, in_stock in books:
    Book.objects.create(
        title=title,
        author=authors[author],
        published=datetime.date.fromisoformat(published),
        genre=genre,
        in_stock=in_stock,
    )
