print("slideshow")
