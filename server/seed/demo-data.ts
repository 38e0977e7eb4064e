/** The people and words of the demo data: a small social site with believable inboxes. */

export interface DemoPerson {
  username: string;
  displayName: string;
  bio: string;
}

export const DEMO_USERNAME = 'demo';
/** What every seeded person signs in with on the site, unless the service is started with another. */
export const DEMO_PASSWORD = 'demo';

export const DEMO_PEOPLE: readonly DemoPerson[] = [
  { username: 'demo', displayName: 'Demo User', bio: 'The account the Inbox Companion demo signs in as. Say hi!' },
  { username: 'alice', displayName: 'Alice Moreau', bio: 'Urban gardener, slow cyclist, fast reader.\nLyon.' },
  { username: 'bob', displayName: 'Bob Okafor', bio: 'Building small tools for big teams. Coffee first.' },
  { username: 'carol', displayName: 'Carol Jensen', bio: 'Photographer chasing fog over the fjords.' },
  { username: 'dave', displayName: 'Dave Kim', bio: 'Backend plumber. I break things so you do not have to.' },
  { username: 'erin', displayName: 'Erin Walsh', bio: 'Marine biologist. Ask me about octopuses.' },
  {
    username: 'frank',
    displayName: 'Frank Müller',
    bio: 'Woodworking, sourdough and the occasional rant about fonts.',
  },
  { username: 'grace', displayName: 'Grace Liu', bio: 'Product designer. Accessibility is not optional.' },
  { username: 'heidi', displayName: 'Heidi Larsen', bio: 'Trail runner and amateur astronomer.' },
  { username: 'ivan', displayName: 'Ivan Petrov', bio: 'Chess, jazz and distributed systems, in that order.' },
  { username: 'judy', displayName: 'Judy Alvarez', bio: 'Community organiser. Libraries are the best public space.' },
  { username: 'kenji', displayName: 'Kenji Sato', bio: 'Ramen critic. Opinions are my own, and correct.' },
  { username: 'li_wei', displayName: 'Li Wei', bio: 'Data journalist. Charts or it did not happen.' },
  {
    username: 'mallory',
    displayName: 'Mallory Quinn',
    bio: 'Security researcher. I read the fine print for a living.',
  },
  { username: 'nour', displayName: 'Nour Haddad', bio: 'Translator (AR/FR/EN). Words are my favourite toys.' },
  { username: 'olivia', displayName: 'Olivia Brown', bio: 'Beekeeper with strong feelings about honey labels.' },
  { username: 'priya', displayName: 'Priya Raman', bio: 'Teaching kids to code, one robot at a time.' },
  { username: 'quentin', displayName: 'Quentin Dubois', bio: 'Cartographer. Every map is a little bit wrong.' },
  { username: 'rosa', displayName: 'Rosa Ferreira', bio: 'Cellist and coffee snob in Porto.' },
  { username: 'sam', displayName: 'Sam Taylor', bio: 'Climbing, camping, and complaining about the weather.' },
  { username: 'tomas', displayName: 'Tomás Novák', bio: 'Game developer. Currently making a game about moths.' },
  { username: 'uma', displayName: 'Uma Patel', bio: 'Nurse by night, watercolour painter by day.' },
  { username: 'victor', displayName: 'Victor Hugo Lima', bio: 'Not that one. Football, samba and spreadsheets.' },
  { username: 'wendy', displayName: 'Wendy Clarke', bio: 'Knits faster than she types.' },
  { username: 'xavier', displayName: 'Xavier Ortiz', bio: 'Sound engineer. Turn it down a little, please.' },
  { username: 'yara', displayName: 'Yara Nasser', bio: 'Architect. Fond of concrete, fonder of trees.' },
  { username: 'zoe', displayName: 'Zoë Fischer', bio: 'Birdwatcher. 312 species and counting.' },
  {
    username: 'noor_art',
    displayName: 'Noor <Studio> & Co',
    bio: 'Illustration studio. We draw <everything> & "anything".',
  },
];

/** Who demo follows, and who follows demo. */
export const DEMO_FOLLOWS = ['alice', 'bob', 'carol', 'grace', 'li_wei', 'nour', 'olivia', 'priya'];
export const DEMO_FOLLOWERS = [
  'alice',
  'bob',
  'dave',
  'erin',
  'frank',
  'heidi',
  'ivan',
  'judy',
  'kenji',
  'mallory',
  'rosa',
  'sam',
  'uma',
  'yara',
  'zoe',
];

export const POSTS = [
  'Finally finished the bookshelf, only one screw left over',
  'Which trail would you pick for a rainy Sunday?',
  'Thread: ten things I wish I knew before adopting a cat',
  'The sunrise over the harbour this morning was unreal',
  'Hot take: tabs are fine, it is the mixing that hurts',
  'Our community garden needs volunteers this weekend',
  'Is anyone going to the meetup on Thursday?',
  'Made my first sourdough loaf and it did not collapse',
  'New blog post: what a year of cycling to work taught me',
  'The library is running a free repair café again',
  'Photo dump from the coast, fog included',
  'Reading list for the long weekend, suggestions welcome',
  'I tried the new ramen place so you do not have to',
  'Quick poll: mountains or sea?',
  'Just shipped the accessibility fixes we talked about',
  'Learned three chords today, the neighbours are thrilled',
];

/** Where the site shows post `number` (from 1) of `username`: every person has the posts of `POSTS`, in order. */
export const postPath = (username: string, number: number) => `/@${username}/posts/${number}`;

export const MENTIONS = [
  'have you seen this?',
  'you were right about the map',
  'can you share the recipe?',
  'this reminded me of your post',
  'what do you think about this?',
  'thanks for the tip last week!',
  'are you joining us on Saturday?',
  'we should try this together',
];

export const REPLIES = [
  'Totally agree, well said',
  'Ha, this made my morning',
  'I had the same problem last year',
  'Do you have a link to the original?',
  'Beautiful shot!',
  'Counterpoint: not everyone has a garden',
  'Saving this for later',
  'Could not have said it better',
  'Wait, how did you do that?',
];

export const SYSTEM_MESSAGES = [
  'Welcome to the demo site! Your inbox shows what happens around you.',
  'Your weekly summary is ready: 14 new interactions.',
  'We updated our community guidelines.',
  'Two-step verification is now available for your account.',
  'Scheduled maintenance on Sunday at 03:00 UTC; expect a few minutes of downtime.',
  'Your data export is ready to download.',
  'New feature: profile badges. Check your profile to pick one.',
  'Reminder: review the apps connected to your account.',
  'Your account turns one this month. Thanks for being here!',
  'A sign-in from a new browser was noticed. If this was you, nothing to do.',
  'Your report was reviewed and action was taken. Thank you.',
  'Your post was featured in this week\u2019s highlights.',
];
