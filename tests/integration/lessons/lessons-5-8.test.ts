import { allLessons, checkLessons } from './lesson-checks';

checkLessons(allLessons.filter((l) => l.order >= 5));
