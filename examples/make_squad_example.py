"""Writes examples/data/squad_en.json: a small SQuAD v1.1-format set the project wrote itself (its own
paragraphs and questions), for the README's main job and the tests. Run from the repository root."""

import json

ARTICLES = {
    "Lighthouses": [
        (
            "A lighthouse is a tower built to guide ships at night and in bad weather. The oldest working "
            "lighthouse in the world is the Tower of Hercules in Spain, which was built by the Romans in the "
            "second century. Early lighthouses burned wood or coal in an open fire at the top of the tower. "
            "In 1822 the French physicist Augustin Fresnel designed a lens made of many rings of glass, which "
            "allowed a small lamp to be seen from more than 30 kilometres away. Most lighthouses today are "
            "automated and no longer need a keeper living on site.",
            [
                ("What is the oldest working lighthouse in the world?", "the Tower of Hercules"),
                ("Who built the Tower of Hercules?", "the Romans"),
                ("What did early lighthouses burn at the top of the tower?", "wood or coal"),
                ("When did Augustin Fresnel design his lens?", "1822"),
                ("How far away could the light of a Fresnel lens be seen?", "more than 30 kilometres"),
                ("What do most lighthouses no longer need today?", "a keeper living on site"),
            ],
        ),
    ],
    "Honey_bee": [
        (
            "Honey bees live in colonies that can hold up to 60,000 workers and a single queen. The workers "
            "are female; the males, called drones, do not collect food. A worker visits hundreds of flowers on "
            "each trip and carries nectar back to the hive, where it is turned into honey. Bees tell each "
            "other where food can be found with a waggle dance, which was first described by the Austrian "
            "scientist Karl von Frisch. He received the Nobel Prize in 1973 for this work.",
            [
                ("How many workers can a honey bee colony hold?", "up to 60,000"),
                ("What are male honey bees called?", "drones"),
                ("What do workers carry back to the hive?", "nectar"),
                ("How do bees tell each other where to find food?", "a waggle dance"),
                ("Who first described the waggle dance?", "Karl von Frisch"),
                ("When did Karl von Frisch receive the Nobel Prize?", "1973"),
            ],
        ),
    ],
    "Silk_Road": [
        (
            "The Silk Road was a network of trade routes that connected China with the Mediterranean world. "
            "It took its name from the silk that Chinese merchants sold to traders in the west. Goods such as "
            "paper, spices, glass and horses moved along the routes, and so did religions and ideas. The city "
            "of Samarkand, in present-day Uzbekistan, grew rich as a stop for caravans. Trade on the land "
            "routes declined in the fifteenth century, when ships began to carry more goods by sea.",
            [
                ("What did the Silk Road connect China with?", "the Mediterranean world"),
                ("Where did the Silk Road get its name from?", "the silk that Chinese merchants sold"),
                ("Which city grew rich as a stop for caravans?", "Samarkand"),
                ("In which present-day country is Samarkand?", "Uzbekistan"),
                ("When did trade on the land routes decline?", "the fifteenth century"),
                ("Why did trade on the land routes decline?", "ships began to carry more goods by sea"),
            ],
        ),
    ],
    "Volcano": [
        (
            "A volcano is an opening in the crust of a planet through which molten rock, ash and gases "
            "escape. Molten rock below the surface is called magma; once it reaches the surface it is called "
            "lava. The largest volcano in the solar system is Olympus Mons on Mars, which is about three times "
            "as tall as Mount Everest. On Earth, most volcanoes are found along the edges of tectonic plates, "
            "especially around the Pacific Ocean in a belt known as the Ring of Fire.",
            [
                ("What is molten rock below the surface called?", "magma"),
                ("What is the largest volcano in the solar system?", "Olympus Mons"),
                ("On which planet is Olympus Mons?", "Mars"),
                ("Where are most volcanoes on Earth found?", "along the edges of tectonic plates"),
                ("What is the belt of volcanoes around the Pacific Ocean known as?", "the Ring of Fire"),
                ("What escapes through the opening of a volcano?", "molten rock, ash and gases"),
            ],
        ),
    ],
}


def main() -> None:
    data = []
    for a, (title, paragraphs) in enumerate(ARTICLES.items()):
        out = []
        for p, (context, qas) in enumerate(paragraphs):
            rows = []
            for q, (question, answer) in enumerate(qas):
                start = context.index(answer)
                rows.append(
                    {
                        "id": f"demo-{a}-{p}-{q}",
                        "question": question,
                        "answers": [{"text": answer, "answer_start": start}],
                    }
                )
            out.append({"context": context, "qas": rows})
        data.append({"title": title, "paragraphs": out})
    with open("examples/data/squad_en.json", "w", encoding="utf-8") as f:
        json.dump({"version": "1.1", "data": data}, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
