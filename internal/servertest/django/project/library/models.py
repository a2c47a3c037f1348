"""A small library: authors and their books, enough fields for the admin
to show a select, a date widget, choices, a checkbox, search and filters."""
from django.db import models


class Author(models.Model):
    name = models.CharField(max_length=100)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class Book(models.Model):
    GENRES = [
        ("fiction", "Fiction"),
        ("science", "Science"),
        ("history", "History"),
    ]

    title = models.CharField(max_length=200)
    author = models.ForeignKey(Author, on_delete=models.CASCADE)
    published = models.DateField()
    genre = models.CharField(max_length=20, choices=GENRES)
    in_stock = models.BooleanField(default=True)

    class Meta:
        ordering = ["title"]

    def __str__(self):
        return self.title
