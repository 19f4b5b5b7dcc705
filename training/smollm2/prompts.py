"""Instructions for the master to answer: templates crossed with topics, split by topic.

The student never sees a held-out topic, so the alpha measured on those prompts is not that of
answers it has memorised. Of the pair's example prompts (which the bench uses), "What is
photosynthesis?" is a training prompt too; the online stage leaves it out, earlier rounds did not.
"""
from __future__ import annotations

import random

TEMPLATES = [
    "What is {t}?", "Explain {t} in simple terms.", "Explain {t} to a ten-year-old.",
    "Write a short paragraph about {t}.", "Give me three facts about {t}.",
    "Why is {t} important?", "Write a short poem about {t}.", "Describe {t} in two sentences.",
    "What are the advantages and disadvantages of {t}?", "Write a short story that involves {t}.",
    "List some common misconceptions about {t}.", "How would you teach a class about {t}?",
    "Summarize the history of {t}.", "What questions do people often ask about {t}?",
    "Give me a few tips related to {t}.", "Write a haiku about {t}.",
    "Compare {t} with something similar.", "What should a beginner know about {t}?",
    "Write a short dialogue between two friends about {t}.", "How does {t} affect everyday life?",
]

TOPICS = [
    "the moon", "volcanoes", "photosynthesis", "the stock market", "chess", "coffee", "rainforests",
    "electric cars", "the Roman Empire", "honeybees", "recycling", "the human brain", "jazz music",
    "mountains", "friendship", "the ocean tides", "solar panels", "bread baking", "dinosaurs",
    "the printing press", "penguins", "marathons", "public libraries", "tea ceremonies", "glaciers",
    "the immune system", "bridges", "origami", "wind energy", "the Olympic Games", "owls",
    "smartphones", "gardening", "the water cycle", "ancient Egypt", "rainbows", "bicycles",
    "volunteering", "deserts", "the piano", "comets", "chocolate", "sleep", "rivers", "robots",
    "the alphabet", "spiders", "kindness", "coral reefs", "trains", "maps", "whales", "clocks",
    "mushrooms", "the internet", "fairy tales", "earthquakes", "bees and flowers", "wolves",
    "museums", "the French Revolution", "vaccines", "snow", "lighthouses", "calligraphy",
    "the periodic table", "saving money", "hiking", "elephants", "thunderstorms", "poetry",
    "the solar system", "bamboo", "cheese making", "airplanes", "teamwork", "castles", "fossils",
    "the heart", "kites", "language learning", "wildfires", "ants", "the Silk Road", "cooking rice",
    "telescopes", "dreams", "autumn", "football", "plastic pollution", "the violin", "mathematics",
    "islands", "cats", "dogs", "summer holidays", "the Great Wall of China", "birds migrating",
    "computers", "good manners", "the desert fox", "bakeries", "the night sky", "umbrellas",
    "gravity", "magnets", "the seasons", "video games", "a busy city", "farming", "running shoes",
]

HELD_OUT_SHARE = 0.2
SEED = 7


def split_topics() -> tuple[list[str], list[str]]:
    """(training topics, held-out topics), fixed by the seed."""
    topics = sorted(set(TOPICS))
    random.Random(SEED).shuffle(topics)
    n_held = round(HELD_OUT_SHARE * len(topics))
    return topics[n_held:], topics[:n_held]


def prompts(topics: list[str]) -> list[str]:
    """Every template for every topic, in a fixed shuffled order."""
    out = [tpl.format(t=t) for t in topics for tpl in TEMPLATES]
    random.Random(SEED).shuffle(out)
    return out


def training_prompts() -> list[str]:
    return prompts(split_topics()[0])


def held_out_prompts() -> list[str]:
    return prompts(split_topics()[1])


# More topics, for training only: the split above stays as it was, so the held-out prompts do not
# change. None is a near relative of a held-out topic (no pets, keyboards, pyramids or jungles).
EXTRA_TOPICS = [
    "the Amazon river", "submarines", "hot air balloons", "the printing of money", "sunflowers",
    "the Eiffel Tower", "pizza", "sharks", "electricity", "yoga", "the Moon landing", "glass making",
    "honey", "the Arctic", "tornadoes", "kangaroos", "the Renaissance", "sushi", "pirates",
    "the Vikings", "knitting", "baseball", "tigers", "lightning", "compost", "the stock exchange floor",
    "microscopes", "butterflies", "camping", "the Sahara", "satellites", "archaeology", "frogs",
    "the postal service", "tennis", "meditation", "cloud computing", "bananas", "lions", "skyscrapers",
    "ice cream", "the brain's memory", "first aid", "hurricanes", "octopuses", "the compass", "salt",
    "paper", "the metro", "astronauts", "oak trees", "tomatoes", "the human skeleton", "jellyfish",
    "the Industrial Revolution", "windmills", "basketball", "chess openings", "cryptography",
    "the wheel", "soap", "bats", "clouds", "the Great Barrier Reef", "eagles", "podcasts",
    "the newspaper", "journaling", "swimming", "the Mona Lisa", "dance", "olive oil", "the Nile",
    "coins", "wind chimes", "tea", "fireflies", "time zones", "the calendar", "batteries",
    "horses", "the Middle Ages", "knights", "sculpture", "photography", "movies", "cartoons",
    "board games", "the circus", "zoos", "national parks", "beaches", "caves", "waterfalls",
    "lakes", "ponds", "forests in winter", "spring flowers", "apples", "potatoes", "noodles",
    "spices", "the kitchen", "restaurants", "farmers' markets", "supermarkets", "shopping online",
    "credit cards", "taxes", "budgeting", "job interviews", "resumes", "teachers", "nurses",
    "firefighters", "scientists", "engineers", "architects", "the post office", "hospitals",
    "schools", "universities", "homework", "exams", "graduation", "birthdays", "weddings",
    "holidays", "New Year celebrations", "fireworks", "music festivals", "orchestras", "guitars",
    "drums", "singing", "opera", "hip hop", "rock music", "classical music", "radio", "television",
    "the telephone", "email", "social media", "passwords", "artificial intelligence",
    "machine learning", "programming", "spreadsheets", "3D printing", "drones", "virtual reality",
    "electric bicycles", "traffic lights", "highways", "ships", "sailing", "canals", "harbours",
    "rockets", "Mars", "Jupiter", "the Sun", "black holes", "stars", "eclipses", "meteor showers",
    "the Big Bang", "atoms", "light", "sound", "heat", "magnetism in the Earth", "rust", "water",
    "ice", "steam engines", "nuclear energy", "hydropower", "climate change", "air pollution",
    "endangered species", "bees in winter", "squirrels", "foxes", "bears", "deer", "rabbits",
    "turtles", "snakes", "crocodiles", "parrots", "flamingos", "ladybugs", "earthworms", "moss",
    "cacti", "roses", "tulips", "pine trees", "maple syrup", "the Olympic torch", "cycling races",
    "skiing", "surfing", "rock climbing", "running a first 5K", "healthy breakfast", "drinking water",
    "vitamins", "exercise", "stretching", "posture", "laughter", "patience", "curiosity",
    "honesty", "courage", "gratitude", "forgiveness", "creativity", "leadership", "time management",
]
EXTRA_TOPICS = [t for t in dict.fromkeys(EXTRA_TOPICS) if t not in TOPICS]


def extra_training_prompts() -> list[str]:
    """Every template for every extra topic, shuffled: the second round of teacher answers."""
    return prompts(EXTRA_TOPICS)


# Topics no eval reads, for fitting the few scores that must hold on topics the draft has not seen
# (the context-copy scores) without touching the held-out prompts. Round eight (online.py) trained on
# all of them but the topics of the copy-scores fit's prompts, which no shipped draft has seen.
# None is a near relative of a held-out topic (no birds of the ice, instruments with keys, medicine,
# cities, revolutions, mountains, numbers, reptiles of old, elements, rice, verse, pets, owls,
# volcanoes, islands, manners, jungles, whales, pharaohs or libraries). (Training on their answers
# alone was tried and not shipped: see the model card.)
UNSEEN_TOPICS = [
    "knots", "sewing", "pottery", "woodworking", "blacksmiths", "candles", "perfume", "soap bubbles",
    "mirrors", "eyeglasses", "hearing", "taste buds", "the sense of smell", "muscles", "teeth", "hair",
    "fingerprints", "blood", "the lungs", "the stomach", "sunscreen", "shadows", "sundials",
    "hourglasses", "wristwatches", "the metric system", "thermometers", "weather forecasts", "fog",
    "hail", "frost", "monsoons", "droughts", "floods", "tsunamis", "avalanches", "sand dunes",
    "canyons", "geysers", "hot springs", "salt flats", "wetlands", "mangroves", "savannas", "tundra",
    "prairies", "meadows", "hedgehogs", "badgers", "otters", "beavers", "camels", "giraffes", "zebras",
    "hippos", "rhinos", "gorillas", "pandas", "koalas", "sloths", "armadillos", "porcupines",
    "raccoons", "moose", "bison", "llamas", "goats", "sheep", "cows", "chickens", "ducks", "geese",
    "swans", "pigeons", "crows", "hummingbirds", "woodpeckers", "peacocks", "ostriches", "salmon",
    "seahorses", "starfish", "crabs", "snails", "dragonflies", "grasshoppers", "crickets",
    "mosquitoes", "beetles", "moths", "termites", "wasps", "scorpions", "lizards", "chameleons",
    "ferns", "ivy", "lavender", "mint", "garlic", "onions", "carrots", "pumpkins", "strawberries",
    "blueberries", "grapes", "oranges", "lemons", "coconuts", "mangoes", "pineapples", "avocados",
    "peanuts", "almonds", "wheat", "corn", "cotton", "wool", "silk", "leather", "rubber", "concrete",
    "steel", "copper", "gold", "diamonds", "marble", "clay", "sand", "pebbles", "crystals", "soup",
    "sandwiches", "pancakes", "dumplings", "tacos", "curry", "salad", "yogurt", "butter", "eggs",
    "jam", "popcorn", "cookies", "birthday cakes", "lemonade", "milk", "hot chocolate", "picnics",
    "barbecues", "alarm clocks", "keys and locks", "stairs", "elevators", "chairs", "pillows",
    "socks", "hats", "buttons", "zippers", "backpacks", "suitcases", "pencils", "crayons",
    "paintbrushes", "scissors", "envelopes", "postcards", "balloons", "jigsaw puzzles",
    "teddy bears", "skateboards", "roller skates", "trampolines", "playgrounds", "sandcastles",
    "snowmen", "sledding", "ice skating", "hockey", "golf", "archery", "fencing",
    "gymnastics", "volleyball", "badminton", "table tennis", "cricket", "rugby", "rowing",
    "kayaking", "fishing", "bird watching", "magic tricks", "juggling", "puppets", "theatre",
    "clowns", "ballet", "choirs", "flutes", "trumpets", "harps", "cellos", "lullabies", "folk songs",
    "villages", "bus stops", "airports", "train stations", "ferries", "tunnels", "dams",
    "fire stations", "pilots", "chefs", "plumbers", "carpenters", "mechanics", "zookeepers",
    "tailors", "barbers", "journalists", "translators", "astronomers", "inventors", "explorers",
    "hope", "boredom", "habits", "mistakes", "luck", "fairness", "sharing", "voting", "banks",
    "advertising", "refrigerators", "washing machines", "light bulbs", "friction", "levers",
    "pulleys", "gears", "pendulums", "buoyancy", "air pressure", "echoes", "static electricity",
    "erosion", "the ozone layer", "auroras", "the Milky Way", "Saturn's rings", "Venus",
    "the International Space Station", "asteroids", "the Wright brothers", "Marco Polo",
    "the Aztecs", "ancient Greece", "samurai", "the Incas", "the telegraph", "the Titanic",
]
UNSEEN_TOPICS = [t for t in dict.fromkeys(UNSEEN_TOPICS) if t not in TOPICS and t not in EXTRA_TOPICS]


def unseen_topic_prompts() -> list[str]:
    """Every template for every unseen topic, in a fixed shuffled order."""
    return prompts(UNSEEN_TOPICS)
