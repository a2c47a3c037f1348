from django.contrib import admin

from .models import Author, Book


@admin.register(Author)
class AuthorAdmin(admin.ModelAdmin):
    search_fields = ["name"]


@admin.register(Book)
class BookAdmin(admin.ModelAdmin):
    list_display = ["title", "author", "published", "genre", "in_stock"]
    search_fields = ["title", "author__name"]
    list_filter = ["genre", "in_stock"]
    # Small, so the seeded books fill more than one page.
    list_per_page = 5
